//go:build unix

package outfile

import "syscall"

// noFollow makes open(2) fail on a symbolic link at the last component.
const noFollow = syscall.O_NOFOLLOW
