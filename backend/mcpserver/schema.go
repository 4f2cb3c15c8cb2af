package mcpserver

import (
	"encoding/json"

	"kidcoder/backend/contract"
)

// The tools' JSON Schemas (2020-12). resultSchema is the `kidcoder run
// --json` object (docs/contracts.md §2), kidrun.Result.
var (
	runInputSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "code": {"type": "string", "description": "The Python program, at most 1 MiB."},
    "stdin": {"type": "string", "description": "Everything input() reads, one answer a line; without it input() meets the end of input."},
    "timeout_seconds": {"type": "number", "exclusiveMinimum": 0, "description": "Wall-clock limit, clamped to 1..60 s as the window's settings are; default: the window's setting."},
    "lang": {"type": "string", "enum": ["zh", "en"], "description": "Language of the friendly errors; default: the window's setting."},
    "events": {"type": "string", "description": "A timeline of keys, clicks and answers to play into a live turtle program: one JSON object a line, as kidcoder run --events reads (docs/mcp.md)."},
    "trace": {"type": "boolean", "description": "Also record the run step by step (the line, the function, the names and their values at each step): the answer then has trace, a head and a tail of the steps, and the text lists some of them."}
  },
  "required": ["code"],
  "additionalProperties": false
}`)

	// resultSchema is generated from the Go type itself, as the window's
	// types are: one definition of a run's shape.
	resultSchema = contract.ResultSchema()

	pathSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "The lesson's path inside the lessons folder, slash-separated, e.g. \"第1周/star.py\" (list_lessons gives them)."}
  },
  "required": ["path"],
  "additionalProperties": false
}`)

	emptySchema = json.RawMessage(`{"type": "object", "additionalProperties": false}`)

	writeSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "The lesson's path inside the lessons folder, ending in .py; its group (folder) must exist."},
    "code": {"type": "string", "description": "The new program, at most 1 MiB."},
    "base_version": {"type": "string", "description": "The version read_lesson gave. When the file on disk is not that version (or exists and none is given), both are kept: the disk's copy as \"NAME (from disk).py\"."}
  },
  "required": ["path", "code"],
  "additionalProperties": false
}`)

	checkSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "A lesson that came from an exercise pack."},
    "code": {"type": "string", "description": "The code to check, at most 1 MiB; default: the saved lesson."},
    "lang": {"type": "string", "enum": ["zh", "en"]}
  },
  "required": ["path"],
  "additionalProperties": false
}`)

	explainSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "code": {"type": "string", "description": "The program, at most 1 MiB. It is only parsed, never run."},
    "lang": {"type": "string", "enum": ["zh", "en"]}
  },
  "required": ["code"],
  "additionalProperties": false
}`)
)
