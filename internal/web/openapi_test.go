package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/sudoku-archive/sudoku/internal/account"
)

// The description, loaded and validated once for every test of the
// package (openapi.json is 3.1: kin-openapi checks it, and the responses,
// by JSON Schema 2020-12).
var (
	specOnce   sync.Once
	specDoc    *openapi3.T
	specRouter routers.Router
	specErr    error
)

func loadSpec(t testing.TB) (*openapi3.T, routers.Router) {
	t.Helper()
	specOnce.Do(func() {
		openapi3filter.RegisterBodyDecoder("application/jsonl", openapi3filter.PlainBodyDecoder)
		l := openapi3.NewLoader()
		if specDoc, specErr = l.LoadFromData(openAPI); specErr != nil {
			return
		}
		if specErr = specDoc.Validate(l.Context); specErr != nil {
			return
		}
		specRouter, specErr = legacy.NewRouter(specDoc)
	})
	if specErr != nil {
		t.Fatalf("internal/web/openapi.json: %v", specErr)
	}
	return specDoc, specRouter
}

// checkAPIResponse validates one answer of the server to req against the
// description, when req is an API request (a GET's HEAD has no body to
// check). A route missing from the description is named, so that it is
// one line to add. The API tests' helpers (do, browser.do) call it on
// every response they get.
func checkAPIResponse(t testing.TB, req *http.Request, status int, header http.Header, body []byte) {
	t.Helper()
	if !isAPIPath(req.URL.Path) || req.Method == http.MethodHead {
		return
	}
	_, router := loadSpec(t)
	// The description's server is "/": match on the path, as the server
	// does, whichever host the client named.
	req = req.Clone(context.Background())
	req.URL = &url.URL{Path: req.URL.Path, RawQuery: req.URL.RawQuery}
	route, params, err := router.FindRoute(req)
	if err != nil {
		if status == http.StatusNotFound || status == http.StatusMethodNotAllowed {
			return // no such route: nothing to describe
		}
		t.Errorf("%s %s answered %d but is not in internal/web/openapi.json (%v): add the route %s %s",
			req.Method, req.URL.Path, status, err, req.Method, req.URL.Path)
		return
	}
	if header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err == nil {
			body, err = io.ReadAll(zr)
		}
		if err != nil {
			t.Errorf("%s %s: gzip body: %v", req.Method, req.URL.Path, err)
			return
		}
	}
	// The same answer to the same operation is validated once per test
	// binary: the walks and the concurrent tests get many identical
	// answers (32 clients of one 900 KB trace), and the validation depends
	// on nothing else.
	v, _ := validated.LoadOrStore(validationKey(req, route, status, header, body), new(validation))
	err = v.(*validation).run(func() error {
		in := &openapi3filter.ResponseValidationInput{
			RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
			Status:                 status,
			Header:                 header,
			Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
		}
		in.SetBodyBytes(body)
		return openapi3filter.ValidateResponse(context.Background(), in)
	})
	if err != nil {
		t.Errorf("%s %s: the %d answer does not match internal/web/openapi.json: %v\nbody: %.500s", req.Method, req.URL.Path, status, err, body)
	}
}

// validated holds the result of each answer validated (validationKey to
// *validation), failures too: a repeated failure is reported again.
var validated sync.Map

// validation is one answer's validation, run once however many callers
// wait for it.
type validation struct {
	once sync.Once
	err  error
}

func (v *validation) run(f func() error) error {
	v.once.Do(func() { v.err = f() })
	return v.err
}

// validationKey names everything ValidateResponse reads: the operation,
// the status, every header and the body (decompressed).
func validationKey(req *http.Request, route *routers.Route, status int, header http.Header, body []byte) [sha256.Size]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%s %s %s %d\n", req.Method, route.Path, req.URL.Path, status)
	for _, k := range slices.Sorted(maps.Keys(header)) {
		fmt.Fprintf(h, "%q: %q\n", k, header[k])
	}
	h.Write(body)
	return [sha256.Size]byte(h.Sum(nil))
}

// TestOpenAPIRoutes: every API route of the route table (routes.go) is in
// the description with its method, and the description has no path the
// server does not answer.
func TestOpenAPIRoutes(t *testing.T) {
	doc, _ := loadSpec(t)
	if !strings.HasPrefix(doc.OpenAPI, "3.1") {
		t.Errorf("openapi %q, want 3.1.x", doc.OpenAPI)
	}
	s := New(partsOf(struct {
		fakeTechniques
		noCollections
	}{fakeTechniques{newFakeModeration(account.RolePlayer)}, noCollections{}}), Config{Logger: quiet})
	served := map[string]bool{}
	for _, r := range s.echo.Routes() {
		if r.Method == http.MethodHead || strings.Contains(r.Name, "methodNotAllowed") || !isAPIPath(r.Path) {
			continue
		}
		p := docPath(r.Path)
		served[p] = true
		item := doc.Paths.Find(p)
		if item == nil || item.GetOperation(r.Method) == nil {
			t.Errorf("route %s %s is not in internal/web/openapi.json: add the operation %q under paths %q", r.Method, r.Path, strings.ToLower(r.Method), p)
		}
	}
	for p := range doc.Paths.Map() {
		if !served[p] {
			t.Errorf("internal/web/openapi.json describes %s, which the route table does not serve", p)
		}
	}
}

// TestOpenAPIServed: GET /api/openapi.json answers the description as
// kept, a JSON document a client can load.
func TestOpenAPIServed(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	rec := get(t, s, "/api/openapi.json")
	if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), openAPI) {
		t.Fatalf("GET /api/openapi.json: %d, %d bytes; want 200 and the %d of openapi.json", rec.Code, rec.Body.Len(), len(openAPI))
	}
	if _, err := openapi3.NewLoader().LoadFromData(rec.Body.Bytes()); err != nil {
		t.Fatal(err)
	}
}
