package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"io/fs"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/static"
)

// asset is one embedded static file, read once at start-up.
type asset struct {
	body []byte
	etag string
}

// assetCacheControl lets browsers keep a file for an hour, then revalidate
// it cheaply by ETag. File names carry no content hash, so a longer life
// would keep stale CSS or JavaScript after an upgrade.
const assetCacheControl = "public, max-age=3600"

// loadAssets reads every file of static.FS into memory, keyed by its path,
// and the stylesheet joined from its parts (static.Stylesheet).
// Serving from this map rather than from a file system means there is no
// directory to list and no path to traverse: a name is either a known file or
// a 404.
func loadAssets() map[string]asset {
	assets := make(map[string]asset)
	err := fs.WalkDir(static.FS, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := fs.ReadFile(static.FS, name)
		if err != nil {
			return err
		}
		assets[name] = newAsset(body)
		return nil
	})
	if err == nil {
		// The stylesheet's parts, one per page or component, joined in
		// their cascade order.
		var css []byte
		css, err = static.Stylesheet()
		assets[static.StylesheetPath] = newAsset(css)
	}
	if err != nil {
		// The files are embedded in the binary: failing to read them is a
		// build defect, not a runtime condition.
		panic("web: read embedded static files: " + err.Error())
	}
	return assets
}

// newAsset is body with its ETag.
func newAsset(body []byte) asset {
	sum := sha256.Sum256(body)
	return asset{body: body, etag: `"` + base64.RawURLEncoding.EncodeToString(sum[:12]) + `"`}
}

// staticFile serves GET /static/*.
func (s *Server) staticFile(c echo.Context) error {
	name := c.Param("*")
	a, ok := s.assets[name]
	if !ok {
		return echo.ErrNotFound
	}
	h := c.Response().Header()
	h.Set("Cache-Control", assetCacheControl)
	h.Set("ETag", a.etag)
	// ServeContent answers If-None-Match with 304, sets Content-Type from the
	// extension and handles HEAD and ranges.
	http.ServeContent(c.Response(), c.Request(), name, time.Time{}, bytes.NewReader(a.body))
	return nil
}
