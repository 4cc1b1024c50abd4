// Package tabs is the small terminal's side tabs: one of several panels
// at a time (the screen's companion, privacy, clipping), chosen with t,
// the tab bar in the place of the panel's title.
package tabs
