package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"

	"dpso/app/cli"
)

// The folders of the generated reference, under the docs folder.
const (
	referenceDir = "cli" // one Markdown page per command
	manDir       = "man" // one man page per command, section 1
)

// notice opens every generated Markdown page.
const notice = "<!-- Generated from dpso's command tree by `go run ./scripts/gendocs`: do not edit (TestReferenceInSync checks it). -->\n\n"

func main() {
	dir := flag.String("dir", "docs", "the docs folder: the reference goes to its cli/ and man/")
	flag.Parse()
	if err := write(*dir); err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
}

// reference is the generated reference, file by file (paths relative to
// the docs folder, slash-separated): referenceDir/<command>.md by
// cobra/doc's Markdown generator, manDir/<command>.1 by its man page
// generator, for every command of cli.ReferenceTree. It depends on the
// tree only (no date, no path), so that a test can hold the checked-in
// docs to it.
func reference() (map[string][]byte, error) {
	files := map[string][]byte{}
	var err error
	cli.VisitCommands(cli.ReferenceTree(false), func(c *cobra.Command) {
		var b bytes.Buffer
		b.WriteString(notice)
		if e := doc.GenMarkdownCustom(c, &b, func(s string) string { return s }); e != nil && err == nil {
			err = e
		}
		files[referenceDir+"/"+strings.ReplaceAll(c.CommandPath(), " ", "_")+".md"] = b.Bytes()
	})
	cli.VisitCommands(cli.ReferenceTree(true), func(c *cobra.Command) {
		page, e := manPage(c)
		if e != nil && err == nil {
			err = e
		}
		files[manDir+"/"+strings.ReplaceAll(c.CommandPath(), " ", "-")+".1"] = page
	})
	return files, err
}

// manPage is c's man page: cobra/doc's, its header naming dpso, without a
// date (the page changes only when the tree does).
func manPage(c *cobra.Command) ([]byte, error) {
	var b bytes.Buffer
	h := &doc.GenManHeader{Section: "1", Source: "dpso", Manual: "dpso manual", Date: &time.Time{}}
	if err := doc.GenMan(c, h, &b); err != nil {
		return nil, err
	}
	undated := manDate.ReplaceAll(b.Bytes(), []byte(`$1""`))
	if bytes.Equal(undated, b.Bytes()) {
		return nil, fmt.Errorf("the man page of %s has no .TH date to remove", c.CommandPath())
	}
	return undated, nil
}

// manDate is the date field of a man page's .TH line, as GenMan writes it
// from a zero time.
var manDate = regexp.MustCompile(`(?m)^(\.TH "[^"]*" "[^"]*" )"Jan 0001"`)

// write writes the reference into the docs folder dir, replacing the
// Markdown pages of dir/cli and the man pages of dir/man (the page of a
// command that no longer exists is removed).
func write(dir string) error {
	files, err := reference()
	if err != nil {
		return err
	}
	for sub, pattern := range map[string]string{referenceDir: "*.md", manDir: "*.1"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return err
		}
		old, err := filepath.Glob(filepath.Join(dir, sub, pattern))
		if err != nil {
			return err
		}
		for _, f := range old {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
