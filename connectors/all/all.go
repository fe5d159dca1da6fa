// Package all links every vendor connector type into the binary: each
// vendor package registers itself from init, so importing it here is what
// makes its type available to connector configurations.
package all

import (
	// The credential type the generic http_request action references.
	_ "github.com/vigil-soc/vigil/connectors/httpaction"
)
