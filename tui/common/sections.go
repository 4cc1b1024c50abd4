package common

// KeptSections are the sections OrderSections puts first in h lines —
// the least important (highest prio, the last first) dropped until the
// rest fits — in their order, and how many lines the dropped ones hold:
// for a block that does not scroll, which shows the kept sections whole
// and says what it left out, where the lines after them would be cut at
// its bottom mid-sentence.
func KeptSections(secs []Section, h int) (kept []string, hidden int) {
	in := keptSections(secs, h)
	for i, s := range secs {
		if in[i] {
			kept = append(kept, s.Lines...)
		} else {
			hidden += len(s.Lines)
		}
	}
	return kept, hidden
}
