// Command sshprobe is the SSH client of .ci/hostile-cases for what a real
// ssh cannot send: a pty-req of 2³²−1 × 2³²−1, thousands of env requests
// on a channel that never asks for a shell, hundreds of window changes in
// a burst; and it writes the state strings the cases give the server.
// It is not part of dpso (a folder starting with a dot is outside the
// module's packages); `go run ./.ci/sshprobe` builds it.
//
//	sshprobe -addr HOST:PORT pty ROWS COLS   a session of that size: waits for the explorer's
//	                                         first screen, types q, prints the exit status
//	sshprobe -addr HOST:PORT env N BYTES     N env requests of BYTES each, no shell: prints how
//	                                         many were accepted, then waits for the server to
//	                                         close the connection and prints "closed"
//	sshprobe -addr HOST:PORT winch N         a 100×30 session, N window changes at once, then
//	                                         q: prints the exit status
//	sshprobe state DATA                      the state string of preset 1's Spec on DATA
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"dpso/internal/spec"
	"dpso/internal/statestring"
)

func main() {
	addr := flag.String("addr", "", "the server's HOST:PORT")
	flag.Parse()
	args := flag.Args()
	if len(args) == 0 {
		fail("usage: sshprobe [-addr HOST:PORT] pty|env|winch|state ARGS")
	}
	switch args[0] {
	case "state":
		if len(args) != 2 {
			fail("usage: sshprobe state DATA")
		}
		s := spec.Spec{Data: args[1], Rk: 1, Beta: 1}
		fmt.Println(statestring.State{Spec: s, Screen: "chart"}.String())
		return
	case "pty", "env", "winch":
	default:
		fail("unknown command " + strconv.Quote(args[0]))
	}
	conn, err := gossh.Dial("tcp", *addr, &gossh.ClientConfig{User: "probe", HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 30 * time.Second,
		Auth: []gossh.AuthMethod{gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })}})
	if err != nil {
		fail("dial: " + err.Error())
	}
	defer conn.Close()
	sess, err := conn.NewSession()
	if err != nil {
		fail("session: " + err.Error())
	}
	switch args[0] {
	case "pty":
		rows, cols := atoi(args, 1), atoi(args, 2)
		fmt.Println(explorer(sess, rows, cols, nil))
	case "winch":
		n := atoi(args, 1)
		fmt.Println(explorer(sess, 30, 100, func() {
			for i := range n {
				sess.WindowChange(24+i%40, 80+i%100)
			}
		}))
	case "env":
		n, size := atoi(args, 1), atoi(args, 2)
		value := strings.Repeat("x", size)
		ok := 0
		for range n {
			if sess.Setenv("V", value) == nil {
				ok++
			}
		}
		fmt.Println(ok, "accepted")
		done := make(chan error, 1)
		go func() { done <- conn.Wait() }()
		select {
		case <-done:
			fmt.Println("closed")
		case <-time.After(5 * time.Minute):
			fmt.Println("still open")
		}
	}
}

// explorer opens a shell of rows×cols, waits until the explorer shows its
// status bar (ready), runs then (if set), types q until the session ends,
// and returns its exit status as text.
func explorer(sess *gossh.Session, rows, cols int, then func()) string {
	if err := sess.RequestPty("xterm-256color", rows, cols, gossh.TerminalModes{}); err != nil {
		fail("pty-req: " + err.Error())
	}
	var mu sync.Mutex
	var out bytes.Buffer
	w := writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return out.Write(p)
	})
	sess.Stdout, sess.Stderr = w, w
	in, err := sess.StdinPipe()
	if err != nil {
		fail(err.Error())
	}
	if err := sess.Shell(); err != nil {
		fail("shell: " + err.Error())
	}
	ended := make(chan error, 1)
	go func() { ended <- sess.Wait() }()
	deadline := time.Now().Add(60 * time.Second)
	for {
		mu.Lock()
		ready := bytes.Contains(out.Bytes(), []byte("ready"))
		mu.Unlock()
		if ready {
			break
		}
		if time.Now().After(deadline) {
			return "no first screen in 60 s"
		}
		time.Sleep(50 * time.Millisecond)
	}
	if then != nil {
		then()
	}
	for range 60 {
		io.WriteString(in, "q")
		select {
		case err := <-ended:
			var ee *gossh.ExitError
			switch {
			case err == nil:
				return "status 0"
			case errors.As(err, &ee):
				return "status " + strconv.Itoa(ee.ExitStatus())
			}
			return "ended: " + err.Error()
		case <-time.After(time.Second):
		}
	}
	return "q never ended the session"
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func atoi(args []string, i int) int {
	if i >= len(args) {
		fail("missing argument")
	}
	n, err := strconv.ParseUint(args[i], 10, 32)
	if err != nil {
		fail(err.Error())
	}
	return int(n)
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "sshprobe: "+msg)
	os.Exit(2)
}
