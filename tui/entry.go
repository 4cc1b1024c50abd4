package tui

import (
	"fmt"
	"strconv"
	"strings"

	"dpso/theory"
)

// startPreset is what New opens and the index of its preset in Presets
// (−1: none): Presets[opts.Preset]; with opts.Start set, that Spec — under
// the preset's caption with opts.PresetRun (the preset with flags over
// it), else under no preset (the focus on the scenario).
func startPreset(opts Options) (Preset, int) {
	switch {
	case opts.Start == nil:
		return Presets[opts.Preset], opts.Preset
	case opts.PresetRun:
		p := Presets[opts.Preset]
		p.Spec = opts.Start.Clone()
		return p, opts.Preset
	}
	return Preset{Spec: opts.Start.Clone(), focus: fScenario}, -1
}

// PresetIndex finds a preset by its number in the list (1 is the first,
// as the explorer numbers them) or by a case-insensitive part of its title
// that only one preset has ("lipschitz", "hard instance"). The error
// lists the presets.
func PresetIndex(name string) (int, error) {
	t := strings.TrimSpace(name)
	if n, err := strconv.Atoi(t); err == nil {
		if n >= 1 && n <= len(Presets) {
			return n - 1, nil
		}
		return 0, fmt.Errorf("no preset %d (there are %d): %s", n, len(Presets), presetTitles())
	}
	var hits []int
	for i, p := range Presets {
		if t != "" && strings.Contains(strings.ToLower(p.Title), strings.ToLower(t)) {
			hits = append(hits, i)
		}
	}
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		return 0, fmt.Errorf("no preset's title contains %s: %s", theory.Quote(t), presetTitles())
	}
	titles := make([]string, len(hits))
	for i, h := range hits {
		titles[i] = strconv.Itoa(h+1) + " " + Presets[h].Title
	}
	return 0, fmt.Errorf("%s is in the titles of %d presets (%s); give more of the title, or its number", theory.Quote(t), len(hits), strings.Join(titles, "; "))
}

// presetTitles is "1 Example 1: …; 2 Heavy tails: …; …".
func presetTitles() string {
	parts := make([]string, len(Presets))
	for i, p := range Presets {
		parts[i] = strconv.Itoa(i+1) + " " + p.Title
	}
	return strings.Join(parts, "; ")
}
