package pmda

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func pipeStreams(t *testing.T) (r, w *Stream, rf, wf *os.File) {
	t.Helper()
	rf, wf, err := os.Pipe() // non-blocking and in the poller, as pipe mode makes them
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rf.Close(); wf.Close() })
	if r, err = NewStream(rf, rf); err != nil {
		t.Fatal(err)
	}
	if w, err = NewStream(wf, wf); err != nil {
		t.Fatal(err)
	}
	return r, w, rf, wf
}

// Data written comes out whole and in order, including a write larger than
// the pipe's buffer, which must wait for the reader rather than fail.
func TestStreamPipeRoundTrip(t *testing.T) {
	r, w, _, wf := pipeStreams(t)
	big := bytes.Repeat([]byte("0123456789abcdef"), 64*1024) // 1 MiB > pipe buffer
	errc := make(chan error, 1)
	go func() {
		_, err := w.Write(big)
		wf.Close()
		errc <- err
	}()
	got, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if err := <-errc; err != nil {
		t.Fatalf("write: %v", err)
	}
	if !bytes.Equal(got, big) {
		t.Fatalf("read %d bytes, want %d, equal=%v", len(got), len(big), bytes.Equal(got, big))
	}
}

// A read waiting for data returns when the stream is closed, so a signal
// can stop the agent while pmcd is silent.
func TestStreamCloseUnblocksRead(t *testing.T) {
	r, _, _, _ := pipeStreams(t)
	closeEndsRead(t, r)
}

// closeEndsRead starts a read on r, closes r, and expects the read to
// return an error within 5 s.
func closeEndsRead(t *testing.T, r *Stream) {
	t.Helper()
	errc := make(chan error, 1)
	go func() {
		_, err := r.Read(make([]byte, 16))
		errc <- err
	}()
	time.Sleep(20 * time.Millisecond)
	r.Close()
	select {
	case err := <-errc:
		if err == nil {
			t.Fatal("read after close returned no error")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("read still blocked 5 s after close")
	}
}

// Writing to a pipe whose reader is gone is an error (EPIPE), not a hang.
func TestStreamWriteToClosedPeer(t *testing.T) {
	_, w, rf, _ := pipeStreams(t)
	rf.Close()
	_, err := w.Write([]byte("hello"))
	if !errors.Is(err, syscall.EPIPE) {
		t.Fatalf("write to closed pipe: %v, want EPIPE", err)
	}
}

// The server runs over a unix socket stream as over pipes.
func TestStreamServesOverUnixSocket(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	client, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	server := (<-accepted).(*net.UnixConn)
	s, err := NewStream(server, server)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := client.Write([]byte("ping")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4)
	if _, err := io.ReadFull(s, buf); err != nil || string(buf) != "ping" {
		t.Fatalf("read %q, %v", buf, err)
	}
	if _, err := s.Write([]byte("pong")); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(client, buf); err != nil || string(buf) != "pong" {
		t.Fatalf("client read %q, %v", buf, err)
	}
	client.Close()
	if _, err := s.Read(buf); err != io.EOF {
		t.Fatalf("read after peer closed: %v, want EOF", err)
	}
}

// In burst mode a read that follows a short wait blocks in the kernel; one
// that follows a long wait goes back to the poller, and data arrives whole
// in both.
func TestStreamBurstReadsSwitchModes(t *testing.T) {
	r, w, _, _ := pipeStreams(t)
	if err := r.ReadBlockingInBursts(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8)
	read := func(want string) {
		t.Helper()
		if _, err := io.ReadFull(r, buf[:len(want)]); err != nil || string(buf[:len(want)]) != want {
			t.Fatalf("read %q, %v; want %q", buf[:len(want)], err, want)
		}
	}
	// Back to back: each read waits well under burstWait.
	for _, msg := range []string{"one", "two", "three"} {
		if _, err := w.Write([]byte(msg)); err != nil {
			t.Fatal(err)
		}
		read(msg)
		if !r.blocking {
			t.Fatalf("after a quick %q the stream is not in blocking mode", msg)
		}
	}
	// A pause: this read waits long, so the next one uses the poller.
	go func() {
		time.Sleep(20 * time.Millisecond)
		w.Write([]byte("late"))
	}()
	read("late")
	go func() {
		time.Sleep(5 * time.Millisecond)
		w.Write([]byte("next"))
	}()
	read("next")
	if r.blocking {
		t.Fatal("after a long wait the stream stayed in blocking mode")
	}
	// Polled again: closing the stream ends a waiting read.
	closeEndsRead(t, r)
}

// A reader that takes each request in two reads (header, then body) gets
// the body at once; that must not pass for pmcd sending back to back.
func TestStreamBurstIgnoresSplitReads(t *testing.T) {
	r, w, _, _ := pipeStreams(t)
	if err := r.ReadBlockingInBursts(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 2)
	for i := 0; i < 3; i++ {
		go func() {
			time.Sleep(5 * time.Millisecond) // paced, as pmlogger fetches
			w.Write([]byte("hdbd"))
		}()
		for _, want := range []string{"hd", "bd"} {
			if _, err := io.ReadFull(r, buf); err != nil || string(buf) != want {
				t.Fatalf("read %q, %v; want %q", buf, err, want)
			}
			// The header read waited 5 ms in whichever mode the body
			// read before it chose.
			if want == "hd" && i > 0 && r.blocking {
				t.Fatalf("request %d: its header was read in blocking mode after a 5 ms pause", i)
			}
		}
	}
}
