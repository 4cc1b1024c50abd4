package cli

import (
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"dpso/internal/report"
)

// ReferenceTree is dpso's command tree prepared for its reference pages
// (scripts/gendocs writes them with cobra/doc): each command's text as
// Markdown (markdownText) followed by its reference details
// (referenceDetails: what its --help leaves out) and its JSON fields to
// every depth; no generation date (DisableAutoGenTag). With man, the
// flags' texts are escaped as Markdown too: the man page generator reads
// them as Markdown, the Markdown pages show them in a code block.
func ReferenceTree(man bool) *cobra.Command {
	e := &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, isTTY: func() bool { return false }}
	root := e.rootCmd()
	citeHelp(root)
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	VisitCommands(root, func(c *cobra.Command) {
		c.DisableAutoGenTag = true
		c.InitDefaultHelpFlag()
		text := c.Long
		if text == "" {
			text = c.Short
		}
		if !cobraCompletion(c) { // cobra writes those in Markdown already
			text = markdownText(text)
		}
		if d := referenceDetails[c.CommandPath()]; d != nil {
			text += "\n\n" + strings.TrimSpace(d())
		}
		if j := jsonFieldsMarkdown(c); j != "" {
			text += "\n\n" + j
		}
		c.Long = text
		if man {
			c.Flags().VisitAll(func(f *pflag.Flag) { f.Usage = escapeMarkdown(f.Usage) })
		}
	})
	return root
}

// cobraCompletion reports whether c is cobra's completion command or one
// of its shells.
func cobraCompletion(c *cobra.Command) bool {
	for ; c != nil; c = c.Parent() {
		if c.Name() == "completion" && c.HasParent() && !c.Parent().HasParent() {
			return true
		}
	}
	return false
}

// VisitCommands calls f on c and every command under it that the
// reference documents (cobra's help command and hidden ones excluded).
func VisitCommands(c *cobra.Command, f func(*cobra.Command)) {
	f(c)
	for _, s := range c.Commands() {
		if s.IsAvailableCommand() && !s.IsAdditionalHelpTopicCommand() {
			VisitCommands(s, f)
		}
	}
}

// jsonFieldsMarkdown is the "JSON fields" section of c's reference: each
// document's keys, every depth, in a code block; "" for a command that
// prints no JSON.
func jsonFieldsMarkdown(c *cobra.Command) string {
	docs := jsonDocs[c.CommandPath()]
	if len(docs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("#### JSON fields\n\n`--json` prints these keys (an object's in {…}, an array of objects' in [{…}]); null where a value is infinite or does not exist.\n")
	for _, d := range docs {
		fs, err := jsonDocFields(d)
		if err != nil {
			panic("cli: " + err.Error()) // a report type that cannot be listed: caught by every test
		}
		if d.when != "" {
			b.WriteString("\nWith `" + d.when + "`:\n")
		}
		b.WriteString("\n```\n" + wrapList(report.FormatFields(fs, 0), "", jsonFieldWidth) + "```\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// markdownText is a help text as Markdown: its paragraphs (separated by
// blank lines) kept, a paragraph with an indented line (a table, an
// aligned list, a command) in a code block as it is, the others with
// Markdown's special characters escaped, so that GitHub and the man page
// generator show the text the terminal shows.
func markdownText(text string) string {
	var out []string
	for _, para := range strings.Split(strings.TrimSpace(text), "\n\n") {
		lines := strings.Split(para, "\n")
		indented := false
		for _, l := range lines {
			indented = indented || strings.HasPrefix(l, "  ") || strings.HasPrefix(l, "\t")
		}
		if indented {
			out = append(out, "```\n"+para+"\n```")
			continue
		}
		for i, l := range lines {
			lines[i] = escapeMarkdown(l)
		}
		out = append(out, strings.Join(lines, "\n"))
	}
	return strings.Join(out, "\n\n")
}

// escapeMarkdown escapes the characters of one line that Markdown would
// read as markup: emphasis, code, links, HTML, tables, and a list, heading
// or quote marker at the line's start.
func escapeMarkdown(line string) string {
	var b strings.Builder
	for i, r := range line {
		switch r {
		case '\\', '`', '*', '_', '[', ']', '<', '>', '|':
			b.WriteByte('\\')
		case '#', '-', '+':
			if strings.TrimSpace(line[:i]) == "" {
				b.WriteByte('\\')
			}
		case '.', ')':
			if isDigits(strings.TrimSpace(line[:i])) {
				b.WriteByte('\\')
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
