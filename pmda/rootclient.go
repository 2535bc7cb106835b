package pmda

import (
	"encoding/binary"
	"errors"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// ContainerFinder says whether a container exists, as pmdalinux asks
// pmdaroot at every fetch and instance request of a client in a
// container: nil when it does, else the error pmdalinux answers with
// (PM_ERR_NOCONTAINER for a container that does not exist).
type ContainerFinder interface {
	FindContainer(name string) error
}

// pmdaroot's protocol (PCP's pmdaroot.h): a 16-byte header of four ints
// in the host's byte order (type, length, status, version), one PDU per
// send and per recv on a unix stream socket. pmdaroot speaks first, with
// an INFO PDU.
const (
	rootPDUVersion   = 2
	rootInfo         = 0x9000
	rootProcessIDReq = 0x9003
	rootProcessID    = 0x9004
	rootHeaderLen    = 16
	rootInfoLen      = rootHeaderLen + 8 // features, zeroed
	rootContainerLen = rootHeaderLen + 8 // pid, namelen, then the name
	rootMaxName      = 4095              // MAXPATHLEN less one
)

// RootSocket is where pmdaroot listens: $PCP_VAR_DIR/pmcd/root.socket,
// as libpcp_pmda's pmdaRootConnect finds it.
func RootSocket() string {
	dir := os.Getenv("PCP_VAR_DIR")
	if dir == "" {
		dir = "/var/lib/pcp"
	}
	return filepath.Join(dir, "pmcd", "root.socket")
}

// RootClient asks pmdaroot which process a container is, as pmdalinux
// does (libpcp_pmda's container lookup): only root may connect to its
// socket, so the agent connects before it drops privileges and keeps the
// connection. A lost connection is made again only while the agent may.
type RootClient struct {
	path    string
	timeout time.Duration
	mu      sync.Mutex
	conn    net.Conn
	buf     [rootContainerLen + rootMaxName + 1]byte
}

// NewRootClient is a client of pmdaroot at path, not yet connected;
// timeout bounds each exchange.
func NewRootClient(path string, timeout time.Duration) *RootClient {
	return &RootClient{path: path, timeout: timeout}
}

// DialRoot connects to pmdaroot at path and reads its INFO PDU. The
// client is returned even when that fails: it then answers as pmdalinux
// does without pmdaroot (PM_ERR_NOTCONN), and tries again at each lookup.
func DialRoot(path string, timeout time.Duration) (*RootClient, error) {
	c := NewRootClient(path, timeout)
	return c, c.Connect()
}

// Connect connects to pmdaroot, if not connected yet.
func (c *RootClient) Connect() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn != nil {
		return nil
	}
	return c.dial()
}

func (c *RootClient) dial() error {
	conn, err := net.DialTimeout("unix", c.path, c.timeout)
	if err != nil {
		return err
	}
	conn.SetDeadline(time.Now().Add(c.timeout))
	n, err := conn.Read(c.buf[:rootInfoLen])
	if err == nil {
		err = checkRootHeader(c.buf[:n], rootInfo, rootInfoLen)
	}
	if err != nil {
		conn.Close()
		return err
	}
	c.conn = conn
	return nil
}

// checkRootHeader checks a PDU from pmdaroot as libpcp_pmda's readers do:
// its size, its type, its version and its status.
func checkRootHeader(pdu []byte, typ int32, min int) error {
	if len(pdu) < min {
		return errors.New("pmdaroot: short PDU")
	}
	ne := binary.NativeEndian
	if int32(ne.Uint32(pdu)) != typ {
		return errors.New("pmdaroot: unexpected PDU type")
	}
	if int32(ne.Uint32(pdu[12:])) > rootPDUVersion {
		return errors.New("pmdaroot: newer protocol version")
	}
	if st := int32(ne.Uint32(pdu[8:])); st != 0 {
		return Errno(st)
	}
	return nil
}

// FindContainer asks pmdaroot for the process of the container name
// (PROCESSID_REQ): nil when it names one, PM_ERR_NOCONTAINER when it
// names none, PM_ERR_NOTCONN without a connection to pmdaroot.
func (c *RootClient) FindContainer(name string) error {
	if name == "" || len(name) > rootMaxName {
		// pmdaroot drops a client that asks for an empty name; no
		// container has a name past MAXPATHLEN.
		return ErrNoContainer
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn == nil && c.dial() != nil {
		return ErrNotConn
	}
	err := c.ask(name)
	var code Errno
	if err != nil && !errors.As(err, &code) {
		// The stream is out of step or gone: start afresh next time.
		c.conn.Close()
		c.conn = nil
		return ErrNotConn
	}
	return err
}

func (c *RootClient) ask(name string) error {
	ne := binary.NativeEndian
	n := rootContainerLen + len(name)
	req := c.buf[:n]
	ne.PutUint32(req[0:], rootProcessIDReq)
	ne.PutUint32(req[4:], uint32(n))
	ne.PutUint32(req[8:], 0) // status
	ne.PutUint32(req[12:], rootPDUVersion)
	ne.PutUint32(req[16:], 0) // pid: look up by name
	ne.PutUint32(req[20:], uint32(len(name)))
	copy(req[rootContainerLen:], name)
	c.conn.SetDeadline(time.Now().Add(c.timeout))
	if _, err := c.conn.Write(req); err != nil {
		return err
	}
	got, err := c.conn.Read(c.buf[:])
	if err != nil {
		return err
	}
	return checkRootHeader(c.buf[:got], rootProcessID, rootContainerLen)
}

// Close ends the connection to pmdaroot.
func (c *RootClient) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn == nil {
		return nil
	}
	err := c.conn.Close()
	c.conn = nil
	return err
}
