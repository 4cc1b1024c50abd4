//go:build !unix

package outfile

// noFollow: O_EXCL alone refuses an existing name, link or not.
const noFollow = 0
