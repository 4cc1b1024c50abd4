package common

// KeptSections are the sections OrderSections puts first in h lines —
// the least important (highest prio, the last first) dropped until the
// rest fits — in their order, and how many lines the dropped ones hold:
// for a block that does not scroll, which shows the kept sections whole
// and says what it left out, where the lines after them would be cut at
// its bottom mid-sentence.
func KeptSections(secs []Section, h int) (kept []string, hidden int) {
	all := 0
	for _, s := range secs {
		all += len(s.Lines)
	}
	lines := OrderSections(secs, h)
	n := all
	for _, s := range dropOrder(secs, h) {
		n -= len(s.Lines)
	}
	return lines[:n], all - n
}

// dropOrder are the sections OrderSections drops to fit h lines.
func dropOrder(secs []Section, h int) []Section {
	kept := make([]bool, len(secs))
	n := 0
	for i, s := range secs {
		kept[i] = true
		n += len(s.Lines)
	}
	var dropped []Section
	for n > h {
		worst := -1
		for i, s := range secs {
			if kept[i] && (worst < 0 || s.Prio >= secs[worst].Prio) {
				worst = i
			}
		}
		if worst < 0 || secs[worst].Prio == 0 {
			break
		}
		kept[worst] = false
		n -= len(secs[worst].Lines)
		dropped = append(dropped, secs[worst])
	}
	return dropped
}
