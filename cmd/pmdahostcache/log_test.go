package main

import "github.com/rs/zerolog"

func discardLog() zerolog.Logger { return zerolog.Nop() }
