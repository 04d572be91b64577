package web

import (
	_ "embed"
	"net/http"

	"github.com/labstack/echo/v4"
)

// openAPI is the OpenAPI 3.1 description of the JSON API, the one source:
// served at GET /api/openapi.json, and checked by the web tests against
// the route table and against every response of the API tests
// (openapi_test.go). Edit it with the route.
//
//go:embed openapi.json
var openAPI []byte

// apiOpenAPI serves the description as it is kept.
func (s *Server) apiOpenAPI(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "public, max-age=3600")
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, openAPI)
}
