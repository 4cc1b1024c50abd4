package statusbar

import (
	"fmt"

	"dpso/tui/common"
)

// waitState is the state of a run that waits for the constants of the
// form's Spec (common.WaitingRunMsg), in the order things happen: the
// constants queued for a CPU slot (their place, the wait added to parts),
// then computed, then — once they have come — the run starts and its own
// state replaces this one.
func (b *Model) waitState(parts *[]string, shorter map[string]string) string {
	st := b.Styles
	switch q := b.presc.Queue; {
	case b.presc.Pending && q != nil && q.Position > 0:
		wait := "waiting " + common.FmtDur(q.Waited)
		*parts = append(*parts, wait+" for a CPU slot")
		shorter[wait+" for a CPU slot"] = wait
		return st.StatePause.Render(fmt.Sprintf("◌ queued (position %d): the constants, then %s starts", q.Position, b.waits))
	case b.presc.Pending:
		return st.StatePause.Render("◌ computing the constants, then " + b.waits + " starts")
	}
	return st.StatePause.Render("◌ starting " + b.waits)
}
