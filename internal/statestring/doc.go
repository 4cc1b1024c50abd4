// Package statestring is the explorer's state string: the codec of one
// token that holds every field of the form (the spec.Spec it edits), the
// screen shown and the preset loaded (its title: its caption and its
// comparison come back with it), so that a student can hand a configuration to someone
// else, `dpso explore --state S` and an SSH session (`dpso serve`) can
// open it, and an instructor can send it to a class.
//
// A token is "dpso3." followed by base64url (no padding) of a raw DEFLATE
// stream (with a fixed dictionary of the field names and common values)
// and the CRC-32 (IEEE) of what it inflates to. What it inflates to is a
// URL query: "screen=NAME", "preset=TITLE" when one is loaded (format 2
// and after; format 1, which has no preset, is still read), "run=r" or
// "run=c" when the screen drew a run (format 3: the key that starts it,
// the screen's run or the comparison with every baseline; format 2, which
// has none, is still read), and one "name=value" per
// set field of the Spec,
// named as the CLI's flags (spec.Field.Text writes the value exactly,
// spec.Field.Set reads it back; a scenario parameter by its own name).
// The digit after "dpso" is the format's version: a change of what the
// payload means (the dictionary, the keys, how a value is written) makes
// a new version, and a token of a version this dpso does not read is
// refused with a sentence that says so, never read as something else. A
// token cut or changed in copying fails its checksum and is refused as
// damaged.
//
// The screens a token may name are its caller's: the explorer's registry
// (tui.ScreenNames), which Parse is given, so that a new screen is named
// in one place. The package imports spec, scenarios and theory only (no
// explorer), so that the CLI, the explorer and the SSH server share one
// codec.
package statestring
