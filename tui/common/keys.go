package common

import "charm.land/bubbles/v2/key"

// KeyMap is the explorer's key bindings, with their help text: the root's
// and the form's here, each screen's in its registry entry (ScreenDef.Key
// and keys), which the help lists from the registry. Components list the
// bindings they handle (ShortHelp, FullHelp); the help screen shows
// FullHelp. ↑/↓ are aliases that move the focus, the presets cursor and
// the help's scroll.
type KeyMap struct {
	Run, Pause, Live     key.Binding
	Next, Prev, Up, Down key.Binding
	Left, Right          key.Binding
	Compare, Presets     key.Binding
	Export, Help, Quit   key.Binding
	// State shows the state string of what is shown and copies it.
	State key.Binding
	Back  key.Binding
	// Panel cycles the side tabs (theorem, privacy, clipping) of the
	// compact layout, and moves the scroll keys between the screen's panel
	// and the privacy panel in the wide one; PageUp/PageDown scroll that
	// panel or the help by a page, LineUp/LineDown (k, j, and the mouse
	// wheel) by a line.
	Panel, PageUp, PageDown key.Binding
	LineUp, LineDown        key.Binding
	// Theme cycles the colours: dark, light, high contrast.
	Theme key.Binding
	// Caption unfolds the loaded preset's caption a page at a time, and
	// folds it after its last page.
	Caption key.Binding
	// Message opens the focused field's explanation under the form
	// where it is cut (and folds it again), and shows the next rows of a
	// message the rows under the form do not hold whole (a refusal), and
	// its start again after its last rows.
	Message key.Binding
	// Set and Cancel end typing a value into the form.
	Set, Cancel key.Binding

	// Focus, Change and Type only summarize tab/shift+tab, ←/→ and typing
	// a value in the one-line help.
	Focus, Change, Type key.Binding
	// PickPreset loads a preset by its number, Filter filters the list by
	// title (both in the presets list).
	PickPreset, Filter key.Binding

	// screens are the registry's entries, whose keys the help lists.
	Screens ScreenDefs
}

// DefaultKeyMap returns the explorer's keys, with those of screens.
func DefaultKeyMap(screens ScreenDefs) KeyMap {
	return KeyMap{
		Screens:  screens,
		Run:      key.NewBinding(key.WithKeys("r", "enter"), key.WithHelp("r/enter", "run / restart")),
		Pause:    key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "pause / resume")),
		Live:     key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "live mode: re-run short runs on every change (not on your rows)")),
		Next:     key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next field")),
		Prev:     key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous field")),
		Up:       key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "previous field")),
		Down:     key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "next field")),
		Left:     key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "smaller value")),
		Right:    key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "larger value")),
		Compare:  key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "compare with baselines")),
		Presets:  key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "presets")),
		Export:   key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "export what is shown (PNG/SVG/JSON)")),
		State:    key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "state string of what is shown (copied; dpso explore --state opens it)")),
		Help:     key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:     key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Back:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Panel:    key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "next side tab (small terminal); wide: the panel j, k, pgdn scroll")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "scroll the side panel / help up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "scroll the side panel / help down")),
		LineUp:   key.NewBinding(key.WithKeys("k"), key.WithHelp("k/wheel", "scroll the side panel / help up a line")),
		LineDown: key.NewBinding(key.WithKeys("j"), key.WithHelp("j/wheel", "scroll the side panel / help down a line")),
		Theme:    key.NewBinding(key.WithKeys("T"), key.WithHelp("T", "theme: dark, light, high contrast (--theme)")),
		Caption:  key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "the preset's caption: unfold it a page at a time, then fold it")),
		Message:  key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "the message under the form where it ends in ▾ f: the field's explanation whole, a refusal's next rows, then its start (the explanation: folded)")),
		Set:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "set the typed value")),
		Cancel:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel typing")),
		Focus:    key.NewBinding(key.WithKeys("tab", "shift+tab"), key.WithHelp("tab/⇧tab", "focus")),
		Change:   key.NewBinding(key.WithKeys("left", "right", "h", "l"), key.WithHelp("←→", "change")),
		Type:     key.NewBinding(key.WithKeys("0", "1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("0-9", "on the main screen: type a value into the focused field (never loads a preset)")),
		PickPreset: key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9", "0"),
			key.WithHelp("1-9, 0", "in the presets list (p) only: load and run preset 1–9, 0 the tenth (preset 5 only loads: its bounds are the point)")),
		Filter: key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "presets: filter by title")),
	}
}

// ShortHelp is the one-line key summary under the status bar, in the
// order it gives way when the line is short (shortHelp fits it): run,
// compare, the form's keys, the screens' keys where their registry
// entries place them (ScreenDef.Place), then the rest; "? all keys" and
// "q quit" end it whatever the width.
func (k KeyMap) ShortHelp() []key.Binding {
	short := func(b key.Binding, keys, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(keys, desc))
	}
	out := []key.Binding{short(k.Run, "r", "run"), short(k.Compare, "c", "compare"), short(k.Focus, "tab", "field"), short(k.Change, "←→", "step")}
	out = append(out, k.Screens.Shorts(HelpBesideRun)...)
	out = append(out, short(k.Pause, "space", "pause"), short(k.Type, "0-9", "type"))
	out = append(out, k.Screens.Shorts(HelpAfterForm)...)
	return append(out, short(k.Presets, "p", "presets"), short(k.Export, "e", "export"), short(k.Live, "a", "live"), short(k.Theme, "T", "theme"))
}

// ShortHelpEnd is what ends the one-line help at every width.
func (k KeyMap) ShortHelpEnd() []key.Binding {
	return []key.Binding{
		key.NewBinding(key.WithKeys(k.Help.Keys()...), key.WithHelp("?", "all keys")),
		key.NewBinding(key.WithKeys(k.Quit.Keys()...), key.WithHelp("q", "quit")),
	}
}

// FullHelp is the help screen, in columns: the runs and the screens'
// keys (the registry's), the form's, the rest.
func (k KeyMap) FullHelp() [][]key.Binding {
	runs := append([]key.Binding{k.Run, k.Pause, k.Compare}, k.Screens.Keys()...)
	return [][]key.Binding{
		append(runs, k.Live),
		{k.Next, k.Prev, k.Left, k.Right, k.Type, k.Set, k.Cancel, k.Message},
		{k.Presets, k.PickPreset, k.Filter, k.Caption, k.Export, k.State, k.Panel, k.PageUp, k.PageDown, k.LineUp, k.LineDown, k.Theme, k.Help, k.Back, k.Quit},
	}
}
