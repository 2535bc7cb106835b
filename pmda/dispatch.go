package pmda

// dispatchTable maps each PDU type pmcd may send to its handler. PROFILE,
// ATTR and ERROR are never answered, and a type not in the table (a reply
// type, CONTROL_REQ, HIGHRES_FETCH, DESC_IDS, anything unknown) is ignored
// unanswered (Server.ignore): a reply pmcd does not expect would be read as
// the answer to its next request.
func dispatchTable() map[Type]handler {
	return map[Type]handler{
		TypeProfile:      (*Server).handleProfile,
		TypeAttr:         (*Server).handleAttr,
		TypeError:        (*Server).handleError,
		TypeCreds:        (*Server).handleNoReply,
		TypeFetch:        (*Server).handleFetch,
		TypeDescReq:      (*Server).handleDesc,
		TypeInstanceReq:  (*Server).handleInstance,
		TypeTextReq:      (*Server).handleText,
		TypeResult:       (*Server).handleStore,
		TypeLabelReq:     (*Server).handleLabel,
		TypePMNSIDs:      (*Server).handlePMNS,
		TypePMNSNames:    (*Server).handlePMNS,
		TypePMNSChild:    (*Server).handlePMNS,
		TypePMNSTraverse: (*Server).handlePMNS,
	}
}

func (s *Server) handleNoReply(h Header, pdu []byte) ([]byte, error) {
	s.cfg.Log.Debug().Stringer("type", h.Type).Int32("from", h.From).Msg("ignored, no reply due")
	return nil, nil
}

// handleError takes pmcd's PM_ERR_NOTCONN: client h.From has gone, so its
// profiles, its process controls and the marks of its interval are
// dropped. Nothing is ever sent back for an ERROR.
func (s *Server) handleError(h Header, pdu []byte) ([]byte, error) {
	var e ErrorPDU
	if err := e.Decode(pdu); err != nil {
		s.cfg.Log.Warn().Err(err).Msg("malformed ERROR PDU ignored")
		return nil, nil
	}
	if e.Code == ErrNotConn {
		s.profiles.drop(h.From)
		s.creds.drop(h.From)
		s.cfg.Controls.Forget(h.From)
		if s.cfg.Clients != nil {
			s.cfg.Clients.Forget(h.From)
		}
		return nil, nil
	}
	s.cfg.Log.Warn().Str("code", e.Code.Error()).Int32("from", h.From).Msg("unexpected ERROR PDU from pmcd")
	return nil, nil
}

// handleAttr keeps what pmcd says about a client. Nothing is ever sent
// back: a malformed ATTR is logged and the stream goes on.
func (s *Server) handleAttr(h Header, pdu []byte) ([]byte, error) {
	var a Attr
	err := a.Decode(pdu)
	if err == nil {
		err = s.creds.set(&a)
	}
	if err != nil {
		s.cfg.Log.Warn().Err(err).Int32("from", h.From).Msg("malformed ATTR PDU ignored")
	}
	return nil, nil
}

// handlePMNS answers namespace requests. Without a Namespace ours is
// static and pmcd holds all of it, so a name or PMID it does not know is
// not ours either; with one, its dynamic subtrees answer (handle_pmns.go).
func (s *Server) handlePMNS(h Header, pdu []byte) ([]byte, error) {
	if s.cfg.Namespace != nil {
		return s.answerPMNS(h, pdu)
	}
	if h.Type == TypePMNSIDs {
		return nil, ErrPMID
	}
	return nil, ErrName
}
