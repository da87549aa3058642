package dev

import "errors"

// ErrNoBuild reports that the server has no successful build to serve yet.
var ErrNoBuild = errors.New("dev: no successful build yet")

// ErrClosed reports a call on a closed Server.
var ErrClosed = errors.New("dev: server closed")
