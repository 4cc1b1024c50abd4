package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// Citation is what a published number needs beside it to be reproduced:
// the dpso build that computed it, the command line that asked for it,
// the randomness (and the seed where seeded: secure randomness reads none
// and cannot be replayed) and, for user data, the SHA-256 of the file's
// bytes (its path may differ elsewhere). Every JSON document and CSV file
// of the command line carries it (WriteCitedJSON, the CSV writers'
// trailing columns).
type Citation struct {
	Version    string
	Command    string
	Rand       string // "seeded" or "secure"; "" where nothing is random
	Seed       uint64
	DataSHA256 string // "" for a scenario
}

// CitationJSON is a Citation in a JSON document ("citation", its first
// key). Seed is null unless the randomness is seeded.
type CitationJSON struct {
	Version    string  `json:"version"`
	Command    string  `json:"command"`
	Rand       string  `json:"rand,omitempty"`
	Seed       *uint64 `json:"seed"`
	DataSHA256 string  `json:"data_sha256,omitempty"`
}

// JSON is c's document (nil for no citation).
func (c *Citation) JSON() *CitationJSON {
	if c == nil {
		return nil
	}
	j := &CitationJSON{Version: c.Version, Command: c.Command, Rand: c.Rand, DataSHA256: c.DataSHA256}
	if c.Rand == "seeded" {
		s := c.Seed
		j.Seed = &s
	}
	return j
}

// citationColumns are the trailing columns of every CSV file.
var citationColumns = []string{"dpso_version", "command", "rand", "seed", "data_sha256"}

// csvHead is the CSV header with c's columns after head (head alone for
// no citation).
func (c *Citation) csvHead(head []string) []string {
	if c == nil {
		return head
	}
	return append(head, citationColumns...)
}

// csvRow is a CSV row with c's cells after row: the seed empty unless
// seeded, the hash empty for a scenario.
func (c *Citation) csvRow(row []string) []string {
	if c == nil {
		return row
	}
	seed := ""
	if c.Rand == "seeded" {
		seed = strconv.FormatUint(c.Seed, 10)
	}
	return append(row, c.Version, c.Command, c.Rand, seed, c.DataSHA256)
}

// WriteCitedJSON writes the document v as WriteJSON does, with c as its
// first key "citation" (v must encode as a JSON object). Without a
// citation it is WriteJSON.
func WriteCitedJSON(w io.Writer, v any, c *Citation) error {
	if c == nil {
		return WriteJSON(w, v)
	}
	doc, err := MarshalJSON(v)
	if err != nil {
		return err
	}
	cit, err := MarshalJSON(c.JSON())
	if err != nil {
		return err
	}
	if !bytes.HasPrefix(doc, []byte("{\n")) {
		return fmt.Errorf("report: a cited document must be a JSON object")
	}
	// The citation object, indented one level, as the document's first
	// member: WriteJSON's own layout, so the result decodes to the
	// document with the extra key.
	cit = bytes.TrimRight(cit, "\n")
	cit = bytes.ReplaceAll(cit, []byte("\n"), []byte("\n  "))
	var b bytes.Buffer
	b.WriteString("{\n  \"citation\": ")
	b.Write(cit)
	b.WriteString(",\n")
	b.Write(doc[2:])
	if !json.Valid(b.Bytes()) {
		return fmt.Errorf("report: the cited document does not encode (a bug)")
	}
	_, err = w.Write(b.Bytes())
	return err
}
