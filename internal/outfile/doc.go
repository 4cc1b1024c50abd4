// Package outfile is the one writer of every file dpso writes (the CLI's
// --plot figures, the explorer's exports): a file appears whole or not at
// all, and no file of the user's is lost or written through a link.
//
// [Write] writes into a temporary file in the target's folder (created
// with O_EXCL, and O_NOFOLLOW where the system has it), syncs it to disk,
// and only then puts it in place: by a hard link, which fails if the
// target exists (so nothing is overwritten, even by a race), or, when the
// caller asked to replace an existing file ([Replace]), by a rename. A
// failed or interrupted write removes the temporary file and leaves an
// existing target untouched. A target that is a symbolic link (dangling or
// not), a folder or any other non-regular file is refused, whatever the
// mode: the target is never followed.
//
// [Check] says up front, before a long run, whether a Write would be
// refused; [WriteSet] writes a group of files sharing one stem (the
// explorer's export: .png, .svg, .json) under the first stem none of whose
// files exists, creating each exclusively.
//
// A file recorded by [Protect] (an input of the process) is never a
// target. [WriteContext] stops a write when its context is done (a
// signal): the temporary file is removed and nothing is put in place;
// [RemoveTemps] removes the temporary files of writes still under way.
//
// Errors that are the caller's choice of target (an existing file without
// Replace, a link, a folder) are *[TargetError]; the CLI maps them to exit
// status 2.
package outfile
