// Package all links every vendor connector type into the binary: each
// vendor package registers itself from init, so importing it here is what
// makes its type available to connector configurations.
package all

import (
	// EDR.
	_ "github.com/vigil-soc/vigil/connectors/crowdstrike"
	_ "github.com/vigil-soc/vigil/connectors/mde"
	_ "github.com/vigil-soc/vigil/connectors/sentinelone"

	// E-mail.
	_ "github.com/vigil-soc/vigil/connectors/gmail"
	_ "github.com/vigil-soc/vigil/connectors/msgraphmail"

	// Identity.
	_ "github.com/vigil-soc/vigil/connectors/entra"
	_ "github.com/vigil-soc/vigil/connectors/okta"

	// Ticketing.
	_ "github.com/vigil-soc/vigil/connectors/jira"
	_ "github.com/vigil-soc/vigil/connectors/servicenow"

	// Threat intelligence.
	_ "github.com/vigil-soc/vigil/connectors/abuseipdb"
	_ "github.com/vigil-soc/vigil/connectors/urlhaus"
	_ "github.com/vigil-soc/vigil/connectors/virustotal"

	// The credential type the generic http_request action references.
	_ "github.com/vigil-soc/vigil/connectors/httpaction"
)
