package serve

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestKeyFilesAreReadOnlyIfRegularAndSmall: --authorized-keys,
// --instructor-key and --host-key refuse, at once and naming the flag, a
// folder, a device (/dev/zero would be read for ever), a FIFO (its open
// would block for ever) and a large file, without reading them.
func TestKeyFilesAreReadOnlyIfRegularAndSmall(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	big := filepath.Join(dir, "big")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(100 << 20) // sparse: 100 MB that take no disk
	f.Close()
	cases := []struct{ name, path, says string }{
		{"a folder", dir, "is a folder, not a regular file"},
		{"a FIFO", fifo, "is a FIFO (a named pipe), not a regular file"},
		{"/dev/zero", "/dev/zero", "is a device, not a regular file"},
		{"a 100 MB file", big, "holds 100 MiB, more than the"},
	}
	if _, err := os.Stat("/dev/zero"); err != nil {
		cases = cases[:2]
	}
	for _, c := range cases {
		for _, flag := range []string{"authorized-keys", "instructor-key", "host-key"} {
			t.Run(c.name+" as --"+flag, func(t *testing.T) {
				got := make(chan error, 1)
				go func() {
					var err error
					if flag == "host-key" {
						_, _, err = hostKey(c.path, false)
					} else {
						_, err = readKeys(flag, c.path)
					}
					got <- err
				}()
				select {
				case err := <-got:
					if err == nil || !strings.HasPrefix(err.Error(), "--"+flag+": ") || !strings.Contains(err.Error(), c.says) {
						t.Fatalf("%v, want a refusal of --%s saying %q", err, flag, c.says)
					}
				case <-time.After(waitLimit):
					t.Fatal("reading the file never returned")
				}
			})
		}
	}
}
