package pmda

import (
	"bufio"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"sync"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// maxSkip is the largest over-long PDU whose body is read and dropped so
// the stream stays in step; beyond it the connection is closed instead.
const maxSkip = 64 << 20

// ErrPeerClosed is returned by Serve when pmcd closes the connection: the
// normal way a daemon PMDA is told to exit.
var ErrPeerClosed = errors.New("pmcd closed the connection")

// TextSource supplies help text for metrics (by name) and instance domains.
type TextSource interface {
	MetricText(name string, long bool) (string, bool)
	InDomText(id cache.InDomID, long bool) (string, bool)
}

// WireTexts is a TextSource that answers some requests by the identifier
// on the wire before the metric or instance domain it names: standing in
// for another agent, that agent's numbering keeps that agent's help. An
// empty text with ok is that agent's answer too, sent as an empty TEXT,
// as libpcp_pmda sends an entry of its help file without a long text:
// pmlogger logs it so, and a client asks for the one-line text instead.
type WireTexts interface {
	WireText(ident uint32, indom, long bool) (string, bool)
}

// Config is what a server needs besides its streams.
type Config struct {
	Name   string // agent name, e.g. "hostcache" (the domain label)
	Domain uint32
	// Numbering numbers metrics and instance domains on the wire; nil is
	// DomainNumbering(Domain).
	Numbering Numbering
	Front     *cache.Front
	Texts     TextSource
	PMStore   cache.PMStorer
	// StoreAccess says who may store; nil lets every client store (tests
	// and tools that play pmcd's part). The agent always sets it.
	StoreAccess *StoreAccess
	Clients     cache.Clients // told when pmcd says a client has gone
	// Controls are pmdaproc's process controls, shared by every server of
	// the agent: whether each client sees threads, and its cgroup. Nil
	// refuses their stores, and every client sees processes.
	Controls *cache.ProcControls
	Log      zerolog.Logger
	// OwnLabelsOnly answers metrics and instance domains with their own
	// labels, without the collector label the schema adds: standing in
	// for another agent, its names carry that agent's labels, no more.
	OwnLabelsOnly bool
	MaxLen        int  // largest PDU accepted; DefaultMaxLen when 0
	Trace         bool // log every PDU as hex words (debug level)
	Now           func() time.Time

	// Namespace names the metrics below the agent's dynamic subtrees; nil
	// answers every namespace request with an error, as for a static one.
	Namespace Namespace
	// DynamicRoots, when Namespace is nil, are the dynamic subtrees the
	// server answers from the front's current schema (NewSchemaNamespace).
	DynamicRoots []string
	// Containers says whether a container a client asked for exists
	// (pmdaroot, as pmdalinux asks it); nil refuses every container
	// with PM_ERR_NYI.
	Containers ContainerFinder
}

// Server answers pmcd's requests on one connection from cached snapshots.
// It is used by one goroutine: its buffers are reused across requests, so
// a fetch in steady state allocates nothing.
type Server struct {
	cfg      Config
	ids      Numbering
	r        io.Reader
	w        io.Writer
	handlers map[Type]handler
	in       []byte
	out      []byte
	outLen   int // the length of the last reply
	outHint  int // the length of the last reply too large to keep (shed)
	fetch    fetchState
	// bufMu guards the buffers above (but in) and the fetch state between
	// a request and the timer that lets large buffers go once the
	// requests stop for shedAfter.
	bufMu     sync.Mutex
	shedTimer *time.Timer
	shedAfter time.Duration
	profiles  profiles
	creds     *credTable
	refusals  refusalLog
	// ignored remembers when an unexpected PDU type was last logged, so a
	// peer that keeps sending one does not fill the log.
	ignored map[Type]time.Time
}

// handler answers one request. A nil reply means none is due; an error
// becomes exactly one ERROR PDU.
type handler func(s *Server, h Header, pdu []byte) ([]byte, error)

// NewServer builds a server reading requests from r and writing replies to w.
func NewServer(cfg Config, r io.Reader, w io.Writer) *Server {
	if cfg.MaxLen == 0 {
		cfg.MaxLen = DefaultMaxLen
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	ids := cfg.Numbering
	if ids == nil {
		ids = DomainNumbering(cfg.Domain)
	}
	if cfg.Namespace == nil && len(cfg.DynamicRoots) > 0 {
		cfg.Namespace = NewSchemaNamespace(cfg.Front, ids, cfg.DynamicRoots)
	}
	return &Server{
		ids: ids,
		// Buffered: a request usually arrives whole, so one read syscall
		// takes header and body together.
		cfg: cfg, r: bufio.NewReaderSize(r, 64*1024), w: w, handlers: dispatchTable(),
		in: make([]byte, 0, 4096), out: make([]byte, 0, 64*1024),
		profiles: newProfiles(), creds: newCredTable(maxCredClients), shedAfter: shedAfter,
	}
}

// Handshake sends our CREDS first, as pmcd waits for them, then reads
// pmcd's. Ours ask for ATTR PDUs (FlagAuth): who each client is decides
// whether it may store.
func (s *Server) Handshake(pid int) error {
	s.out = (&Creds{From: int32(pid), Version: pduVersion, Flags: FlagAuth | FlagContainer}).Append(s.out[:0])
	if err := s.write(s.out); err != nil {
		return fmt.Errorf("sending creds: %w", err)
	}
	h, pdu, err := ReadPDU(s.r, s.in, s.cfg.MaxLen)
	s.in = pdu
	if err != nil {
		if err == io.EOF {
			return ErrPeerClosed
		}
		return fmt.Errorf("reading creds: %w", err)
	}
	s.trace("recv", pdu)
	if h.Type != TypeCreds {
		return fmt.Errorf("expected CREDS from pmcd, got %s", h.Type)
	}
	var c Creds
	if err := c.Decode(pdu); err != nil {
		return fmt.Errorf("pmcd creds: %w", err)
	}
	s.cfg.Log.Info().Int32("pmcd_pid", c.From).Uint8("version", c.Version).Msg("connected to pmcd")
	if c.Flags&FlagAuth == 0 && s.cfg.StoreAccess != nil {
		s.cfg.Log.Warn().Msg("pmcd will not say who its clients are: every store will be refused")
	}
	return nil
}

// Serve answers requests until pmcd closes the connection or ctx ends.
// Blocking reads cannot see ctx: the caller closes the input to stop it.
func (s *Server) Serve(ctx context.Context) error {
	for ctx.Err() == nil {
		if err := s.serveOne(); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// serveOne reads one PDU and writes at most one reply.
func (s *Server) serveOne() error {
	h, pdu, err := ReadPDU(s.r, s.in, s.cfg.MaxLen)
	s.in = pdu[:0]
	if cap(s.in) > keptBuffer {
		s.in = nil
	}
	s.bufMu.Lock()
	defer s.bufMu.Unlock()
	defer s.afterRequest()
	switch {
	case err == io.EOF, errors.Is(err, syscall.ECONNRESET):
		// A socket peer that closes with data unread resets instead.
		return ErrPeerClosed
	case errors.Is(err, ErrLongPDU) && int64(h.Len) <= maxSkip:
		// The length is sane enough to skip: drop the body and stay in step.
		if _, cerr := io.CopyN(io.Discard, s.r, int64(h.Len)-HeaderLen); cerr != nil {
			return ErrPeerClosed
		}
		if _, ok := s.handlers[h.Type]; !ok {
			s.ignore(h)
			return nil
		}
		s.cfg.Log.Warn().Err(err).Stringer("type", h.Type).Msg("request refused")
		return s.reply(h, nil, ErrIPC)
	case err != nil:
		// Below a header's size, negative type, or EOF mid-PDU: the stream
		// cannot be resynchronised, so close it cleanly.
		s.cfg.Log.Error().Err(err).Msg("unreadable PDU, closing connection")
		return fmt.Errorf("reading request: %w", err)
	}
	s.trace("recv", pdu)
	hd, ok := s.handlers[h.Type]
	if !ok {
		// Not a request pmcd sends a PMDA: it expects no answer, and one
		// would be read as the answer to its next request.
		s.ignore(h)
		return nil
	}
	reply, herr := hd(s, h, pdu)
	return s.reply(h, reply, herr)
}

// keptBuffer is the most bytes of request and reply buffers a server
// keeps once its requests stop for shedAfter.
const keptBuffer = 1 << 20

// shedAfter is how long a server keeps larger buffers after a request: a
// fetch of every process's ps columns at 10,000 processes makes a 3.5 MB
// reply from 7 MB of values. A client that fetches again within it (a
// top-like tool) reuses them; one that fetches every 10 s or more
// (pmlogger) does not have the agent hold them between its fetches.
const shedAfter = 2 * time.Second

// afterRequest lets the request's snapshot go, so that a part replaced
// since is freed before the next request, and has large buffers let go
// once no request has come for shedAfter. Called with bufMu held.
func (s *Server) afterRequest() {
	s.fetch.read = cache.Request{}
	if cap(s.out) <= keptBuffer && cap(s.fetch.values) <= keptValues {
		return
	}
	if s.shedTimer == nil {
		s.shedTimer = time.AfterFunc(s.shedAfter, s.shed)
		return
	}
	s.shedTimer.Reset(s.shedAfter)
}

// shed lets the buffers larger than keptBuffer go; the next request gets
// room for the last one's size at once.
func (s *Server) shed() {
	s.bufMu.Lock()
	defer s.bufMu.Unlock()
	if cap(s.out) > keptBuffer {
		s.outHint, s.out = s.outLen, nil
	}
	s.fetch.shed()
}

// reply writes the handler's reply, or one ERROR PDU for its error.
func (s *Server) reply(h Header, reply []byte, err error) error {
	if err != nil {
		var code Errno
		if !errors.As(err, &code) {
			code = ErrIPC // a body that failed to decode
		}
		s.cfg.Log.Info().Stringer("type", h.Type).Int32("from", h.From).Err(err).Msg("request refused")
		reply = (&ErrorPDU{Code: code}).Append(s.out[:0])
	}
	if reply == nil {
		return nil
	}
	s.out, s.outLen = reply[:0], len(reply)
	return s.write(reply)
}

func (s *Server) write(pdu []byte) error {
	s.trace("send", pdu)
	if _, err := s.w.Write(pdu); err != nil {
		return fmt.Errorf("%w: %v", ErrPeerClosed, err)
	}
	return nil
}

func (s *Server) trace(dir string, pdu []byte) {
	if s.cfg.Trace {
		s.cfg.Log.Debug().Str("dir", dir).Str("pdu", hex.EncodeToString(pdu)).Msg("pdu")
	}
}

// pmid and indom conversions between the wire and the cache.

func (s *Server) wirePMID(id cache.MetricID) uint32 { return s.ids.PMID(id) }

func (s *Server) wireInDom(id cache.InDomID) uint32 { return s.ids.InDom(id) }

// metricOf resolves a wire PMID this agent answers to its descriptor.
func (s *Server) metricOf(pmid uint32) (*cache.Desc, bool) {
	return s.metricIn(s.cfg.Front.Schema(), pmid)
}

// metricIn resolves a wire PMID in schema: a fetch looks its metrics up in
// the schema of the snapshot it reads.
func (s *Server) metricIn(schema *cache.Schema, pmid uint32) (*cache.Desc, bool) {
	id, ok := s.ids.Metric(pmid)
	if !ok {
		return nil, false
	}
	return schema.Desc(id)
}

// indomOf resolves a wire InDom this agent answers to its serial.
func (s *Server) indomOf(indom uint32) (cache.InDomID, bool) {
	id, ok := s.ids.InDomOf(indom)
	return id, ok && s.cfg.Front.Schema().HasInDom(id)
}

// ignore logs a PDU of a type that gets no reply, at most once a minute
// per type.
func (s *Server) ignore(h Header) {
	if s.ignored == nil {
		s.ignored = map[Type]time.Time{}
	}
	now := s.cfg.Now()
	if last, ok := s.ignored[h.Type]; ok && now.Sub(last) < time.Minute {
		return
	}
	if len(s.ignored) < 64 { // a peer cycling through types cannot grow it
		s.ignored[h.Type] = now
	}
	s.cfg.Log.Warn().Stringer("type", h.Type).Int32("len", h.Len).Int32("from", h.From).
		Msg("ignored a PDU that is not a request: no reply is due")
}
