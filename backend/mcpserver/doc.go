// Package mcpserver is Kid Coder as an MCP server: AI tutors run a child's
// Python through the classroom's own sandbox, read and check lessons, and
// show the classroom card (docs/mcp.md).
package mcpserver
