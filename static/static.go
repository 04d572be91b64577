// Package static holds the CSS and JavaScript served under /static/.
package static

import "embed"

// FS holds css/ and js/.
//
//go:embed css js
var FS embed.FS
