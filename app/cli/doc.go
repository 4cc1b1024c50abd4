// Package cli is dpso's command line: the cobra command tree (Main, one
// file per command), the flags built from the spec's field table
// (flags.go), and the helpers the commands share (interrupts, progress
// line, figures, privacy notes on user data). Its help lists each
// command's flags under their groups' headings and its JSON fields,
// generated from the report types (help.go); ReferenceTree is the tree
// as the generated reference (scripts/gendocs: docs/cli, docs/man)
// documents it, with what --help leaves out (reference.go).
//
// Exit status: 0 on success, 2 for invalid input (one line on stderr naming
// the flag and its allowed range), 130 when interrupted (Ctrl-C), 1 for any
// other failure.
package cli
