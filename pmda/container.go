package pmda

// refuseContainer answers PM_ERR_NYI to a client that asked for a
// container's view (pmcd's ATTR PCP_ATTR_CONTAINER, which it sends
// because the agent's CREDS set FlagContainer): the agent samples the
// host, and the host's values or instances must never answer under a
// container's name. The refusal is logged once per client.
func (s *Server) refuseContainer(h Header) error {
	if !s.creds.inContainer(h.From) {
		return nil
	}
	if s.creds.noteRefusal(h.From) {
		s.cfg.Log.Warn().Int32("from", h.From).Msg("container context refused: the agent serves the host only")
	}
	return ErrNYI
}
