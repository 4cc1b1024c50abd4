// Package help is the explorer's help overlay (?): the latest messages in
// full, the keys in columns (the root's, the form's and every screen's,
// from the registry), and paragraphs on how to read the screens; what
// does not fit scrolls. Its outcome is common.CloseMsg.
package help
