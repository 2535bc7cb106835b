package main

import (
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/pmda"
)

// rootTimeout bounds one exchange with pmdaroot: a fetch of a client in
// a container waits for it, as pmdalinux's does.
const rootTimeout = time.Second

// newContainerFinder is the pmdaroot client that tells a container that
// does not exist (PM_ERR_NOCONTAINER, as pmdalinux answers) from one
// that does (PM_ERR_NYI: the agent samples the host only).
func newContainerFinder() *pmda.RootClient {
	return pmda.NewRootClient(pmda.RootSocket(), rootTimeout)
}

// connectRoot connects to pmdaroot while the agent is still root: only
// root may connect to its socket. Without it a client in a container
// gets PM_ERR_NOTCONN, as from pmdalinux without pmdaroot.
func connectRoot(roots *pmda.RootClient, log zerolog.Logger) {
	if err := roots.Connect(); err != nil {
		log.Info().Err(err).Str("socket", pmda.RootSocket()).
			Msg("pmdaroot unreachable: container contexts get PM_ERR_NOTCONN")
	}
}
