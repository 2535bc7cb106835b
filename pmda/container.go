package pmda

// refuseContainer answers a client that asked for a container's view
// (pmcd's ATTR PCP_ATTR_CONTAINER, which it sends because the agent's
// CREDS set FlagContainer) with an error, as its fetches and instance
// requests must never get the host's values under a container's name.
// The error is pmdalinux's where pmdalinux fails too: it asks pmdaroot
// at each request, and a container that does not exist gets
// PM_ERR_NOCONTAINER (and no pmdaroot PM_ERR_NOTCONN). A container that
// exists gets PM_ERR_NYI: the agent samples the host only, where
// pmdalinux would read the container's namespaces. Without a
// ContainerFinder every container gets PM_ERR_NYI. The refusal is logged
// once per client.
func (s *Server) refuseContainer(h Header) error {
	name, ok := s.creds.container(h.From)
	if !ok {
		return nil
	}
	refusal := ErrNYI
	if s.cfg.Containers != nil {
		if err := s.cfg.Containers.FindContainer(name); err != nil {
			refusal = ErrNoContainer
			if code, ok := err.(Errno); ok {
				refusal = code
			}
		}
	}
	if s.creds.noteRefusal(h.From) {
		s.cfg.Log.Warn().Int32("from", h.From).Str("container", name).Str("error", refusal.Error()).
			Msg("container context refused")
	}
	return refusal
}
