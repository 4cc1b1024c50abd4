package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestTableInDocs: docs/privacy.md holds the table this command prints,
// row for row (the doc's rows are what the mechanism's exact law gives
// today).
func TestTableInDocs(t *testing.T) {
	var b bytes.Buffer
	if err := write(&b, "../../"+Golden); err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../../docs/privacy.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(line, "| ") && !strings.Contains(string(doc), line) {
			t.Errorf("docs/privacy.md lacks the row\n%s\n(go run ./scripts/quantiletable prints the table)", line)
		}
	}
}
