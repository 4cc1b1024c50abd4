// Command gendocs writes dpso's command reference from its command tree:
// docs/cli, one Markdown page per command, and docs/man, one man page
// (section 1) per command, by cobra/doc's generators, with each command's
// reference details and JSON fields (cli.ReferenceTree).
//
//	go run ./scripts/gendocs
//
// Run it after changing a command, a flag or an output document;
// TestReferenceInSync fails while docs/ differs from what it writes.
package main
