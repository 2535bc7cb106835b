//go:build linux

package integration

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// clientRun is what PCP's own clients printed against one agent serving
// pmdalinux's names.
type clientRun struct {
	archive      string
	loggerConfig string
	loggerLog    string
	withValues   map[string]bool       // names with a value in the archive
	outputs      map[string]toolOutput // pmrep views and stat tools, by job name
	pmie         pmieRun
}

// runClients runs every client once, the archive and pmie in the
// background while the views and tools run, and names its files after
// phase.
func runClients(t *testing.T, dir, phase string, views []pmrepView, stats []statTool) clientRun {
	t.Helper()
	base := filepath.Join(dir, phase)
	logger := startLogger(t, base)
	rules := startPmie(t, base)
	var jobs []clientJob
	for _, v := range views {
		jobs = append(jobs, v.command())
	}
	for _, s := range stats {
		jobs = append(jobs, s.command)
	}
	r := clientRun{archive: base, loggerConfig: logger.config, outputs: runJobs(jobs)}
	logger.proc.wait(t)
	r.loggerLog = readText(t, logger.log)
	rules.proc.wait(t)
	r.pmie = parsePmieLog(readText(t, rules.log))
	r.withValues = archiveValues(t, r.archive)
	return r
}

func readText(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// clientJob is one client command line.
type clientJob struct {
	name string
	args []string
}

// toolOutput is what one job printed and how it ended.
type toolOutput struct {
	stdout, stderr string
	err            error
}

func (o toolOutput) failed() bool { return o.err != nil || strings.TrimSpace(o.stderr) != "" }

// complaint is what the job said went wrong: its standard error and its
// exit status.
func (o toolOutput) complaint() string {
	if o.err != nil {
		return o.stderr + "\n" + o.err.Error()
	}
	return o.stderr
}

// jobStartGap spaces the jobs' starts. pmcd takes five connections at
// most pending on its socket (PMCD_MAXPENDING), and a tool whose unix
// socket connection fails connects to localhost over TCP instead (local:
// in pmNewContext(3)), where pmcd names no user to the agents: pmdaproc
// and the stand-in then refuse it the processes. Started together while
// pmcd waits on an agent, eight jobs could do that.
const jobStartGap = 100 * time.Millisecond

// runJobs runs the jobs eight at a time: each pmrep waits a second
// between its samples, so running them one by one takes minutes.
func runJobs(jobs []clientJob) map[string]toolOutput {
	out := make(map[string]toolOutput, len(jobs))
	var mu sync.Mutex
	var wg sync.WaitGroup
	slots := make(chan struct{}, 8)
	starts := time.NewTicker(jobStartGap)
	defer starts.Stop()
	for _, j := range jobs {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			<-starts.C
			o := j.run()
			mu.Lock()
			out[j.name] = o
			mu.Unlock()
		})
	}
	wg.Wait()
	return out
}

func (j clientJob) run() toolOutput {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, j.args[0], j.args[1:]...)
	// PCP's python tools run python3 found on PATH: one earlier on it
	// (pyenv's on these machines) has no PCP module.
	cmd.Env = append(os.Environ(), "PATH=/usr/bin:/bin:"+os.Getenv("PATH"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		err = fmt.Errorf("%s did not finish within a minute", j.name)
	}
	return toolOutput{stdout: stdout.String(), stderr: stderr.String(), err: err}
}

// background is a client left running while others run.
type background struct {
	name   string
	cmd    *exec.Cmd
	out    bytes.Buffer
	cancel context.CancelFunc
	waited bool
}

// startBackground starts a command that must end by itself within three
// minutes; a test that stops early kills it. pmlogger's five seconds take
// longer on a busy machine: it looks up every name, descriptor and help
// text of its configuration through pmcd while the views start too.
func startBackground(t *testing.T, name string, args ...string) *background {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	b := &background{name: name, cancel: cancel}
	b.cmd = exec.CommandContext(ctx, name, args...)
	b.cmd.Stdout, b.cmd.Stderr = &b.out, &b.out
	if err := b.cmd.Start(); err != nil {
		cancel()
		t.Fatalf("%s: %v", name, err)
	}
	t.Cleanup(func() {
		cancel()
		if !b.waited {
			b.cmd.Wait()
		}
	})
	return b
}

// wait fails the test when the command failed.
func (b *background) wait(t *testing.T) {
	t.Helper()
	err := b.cmd.Wait()
	b.waited = true
	b.cancel()
	if err != nil {
		t.Fatalf("%s: %v\n%s", b.name, err, b.out.String())
	}
}

// newLines are the non-blank lines of after that before does not have.
func newLines(before, after string) []string {
	seen := map[string]bool{}
	for _, line := range strings.Split(before, "\n") {
		seen[strings.TrimSpace(line)] = true
	}
	var out []string
	for _, line := range strings.Split(after, "\n") {
		if line = strings.TrimSpace(line); line != "" && !seen[line] {
			out = append(out, line)
			seen[line] = true
		}
	}
	return out
}

// lastLines is the end of a long output, for a message.
func lastLines(text string, n int) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
