package report

import (
	"fmt"
	"io"
	"reflect"
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
// "citation", the document's first key: v is a struct (or a pointer to
// one) whose first field is Citation *CitationJSON, set on a copy.
// Without a citation it is WriteJSON.
func WriteCitedJSON(w io.Writer, v any, c *Citation) error {
	if c == nil {
		return WriteJSON(w, v)
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer {
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct || rv.NumField() == 0 || rv.Type().Field(0).Name != "Citation" ||
		rv.Type().Field(0).Type != reflect.TypeFor[*CitationJSON]() {
		return fmt.Errorf("report: %T has no Citation field first (a bug)", v)
	}
	cp := reflect.New(rv.Type()).Elem()
	cp.Set(rv)
	cp.Field(0).Set(reflect.ValueOf(c.JSON()))
	return WriteJSON(w, cp.Interface())
}
