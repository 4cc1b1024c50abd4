// Package presets is the explorer's presets for teaching and demos: All,
// in the list's order (the first opens the explorer), each a Spec with
// what to look at — its text, the caption shown under the header while it
// is loaded, the field to play with, the screen it shows and what loading
// it starts — and Index, which finds one by its number or a part of its
// title (dpso explore --preset). A preset names its screen by its kind
// and its field by its flag, so that the package imports no screen and
// no component; TestPresets checks both against the registry and the
// form.
package presets
