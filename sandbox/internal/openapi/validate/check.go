package validate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"sort"
	"strconv"
	"strings"

	liberrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi-validator/helpers"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
	"github.com/pb33f/libopenapi/orderedmap"
)

// CheckResponse validates a response against the operation that serves
// method and a concrete path. With strict, an operation or status the
// document does not declare, and a media type it does not list, are
// problems too; without, they are skipped (the upstream document declares
// few statuses).
func (d *Document) CheckResponse(
	method, path string,
	status int,
	contentType string,
	body []byte,
	strict bool,
) []string {
	tpl, ok := d.Operation(method, path)
	if !ok {
		if strict {
			return []string{fmt.Sprintf("%s %s is not in the document", method, path)}
		}
		return nil
	}
	return d.CheckOperation(method, tpl, status, contentType, body, strict)
}

// CheckOperation validates a response of the operation at method and path
// template, as CheckResponse does. Each problem starts with the method,
// template, operationId (if any) and status.
func (d *Document) CheckOperation(
	method, template string,
	status int,
	contentType string,
	body []byte,
	strict bool,
) []string {
	item := d.model.Paths.PathItems.GetOrZero(template)
	var op *v3.Operation
	if item != nil {
		op = item.GetOperations().GetOrZero(strings.ToLower(method))
	}
	if op == nil {
		if strict {
			return []string{fmt.Sprintf("%s %s is not in the document", method, template)}
		}
		return nil
	}
	where := fmt.Sprintf("%s %s %d", method, template, status)
	if op.OperationId != "" {
		where = fmt.Sprintf("%s %s (%s) %d", method, template, op.OperationId, status)
	}
	if resp := declared(op, status); resp != nil && orderedmap.Len(resp.Content) == 0 {
		if strict && len(body) > 0 && status != http.StatusNoContent {
			return []string{where + ": a body is not declared"}
		}
		return nil
	}
	req, err := http.NewRequest(method, template, nil)
	if err != nil {
		return []string{where + ": " + err.Error()}
	}
	res := &http.Response{
		StatusCode: status,
		Header:     http.Header{"Content-Type": {contentType}},
		Body:       io.NopCloser(bytes.NewReader(body)),
	}
	if len(body) == 0 {
		res.Body = http.NoBody
	}
	_, errs := d.bodies.ValidateResponseBodyWithPathItem(req, res, item, template)
	var problems []string
	for _, e := range errs {
		switch {
		case e.ValidationSubType == helpers.ResponseBodyResponseCode:
			if strict {
				problems = append(problems, where+": status not declared")
			}
		case e.ValidationSubType == helpers.RequestBodyContentType:
			if strict {
				mt, _, _ := mime.ParseMediaType(contentType)
				problems = append(problems, fmt.Sprintf("%s: media type %q not declared", where, mt))
			}
		default:
			problems = append(problems, describe(where, e, body)...)
		}
	}
	sort.Strings(problems)
	return problems
}

// CheckSchema validates a JSON body against the component schema name.
func (d *Document) CheckSchema(name string, body []byte) []string {
	proxy := d.model.Components.Schemas.GetOrZero(name)
	if proxy == nil {
		return []string{fmt.Sprintf("schema %q is not in the document", name)}
	}
	_, errs := d.schemas.ValidateSchemaBytesWithVersion(proxy.Schema(), body, d.version)
	var problems []string
	for _, e := range errs {
		problems = append(problems, describe(name, e, body)...)
	}
	sort.Strings(problems)
	return problems
}

// declared is the response an operation declares for a status: the exact
// code, else its range ("2XX"), else default.
func declared(op *v3.Operation, status int) *v3.Response {
	if op.Responses == nil {
		return nil
	}
	code := strconv.Itoa(status)
	if r := op.Responses.Codes.GetOrZero(code); r != nil {
		return r
	}
	if r := op.Responses.Codes.GetOrZero(code[:1] + "XX"); r != nil {
		return r
	}
	return op.Responses.Default
}

// describe turns a validation error into problems, one per failing
// location: "where: /json/pointer = value: reason", the value shown when
// it is a scalar.
func describe(where string, e *liberrors.ValidationError, body []byte) []string {
	if len(e.SchemaValidationErrors) == 0 {
		return []string{where + ": " + e.Message + ": " + e.Reason}
	}
	out := make([]string, 0, len(e.SchemaValidationErrors))
	for _, f := range e.SchemaValidationErrors {
		at := pointer(f.InstancePath)
		if v, ok := valueAt(body, f.InstancePath); ok {
			switch v.(type) {
			case map[string]any, []any:
			default:
				raw, _ := json.Marshal(v)
				if len(raw) > 120 {
					raw = append(raw[:120], "…"...)
				}
				at += " = " + string(raw)
			}
		}
		out = append(out, where+": "+at+": "+f.Reason)
	}
	return out
}

// pointer is the JSON pointer of a path of property names and indexes.
func pointer(path []string) string {
	if len(path) == 0 {
		return "/"
	}
	var b strings.Builder
	for _, seg := range path {
		b.WriteString("/")
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(seg, "~", "~0"), "/", "~1"))
	}
	return b.String()
}
