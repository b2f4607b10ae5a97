#!/usr/bin/env node
// Reference list of JavaScript `throw` sites with a literal or formatted message.
//
// errata's JavaScript rules are tree-sitter based; this script is the independent oracle its
// recall tests compare against. It parses with acorn, a full ECMAScript parser, and walks every
// node with acorn-walk.
//
// Usage:
//
//     node js_throws.mjs ROOT < filelist
//     node js_throws.mjs --summary ROOT < filelist
//
// stdin holds one path per line, relative to ROOT. Each file is read as UTF-8 and parsed as a
// module, then as a script if that fails; a file that does not decode or that neither parse
// accepts is skipped silently. For every counted site one JSON line is printed:
//
//     {"path": "lib/cli.js", "line": 42, "message": "Unknown command"}
//
// `path` is the path as given on stdin, `line` the 1-based line the `throw` statement starts on
// and `message` a short, human-readable rendering of the message (the text of a plain string,
// the source of a formatted one), cut to a bounded length. With `--summary` only one JSON object
// of counts is printed.
//
// What counts, with A the thrown expression (parentheses and `await` unwrapped):
//
// - A is a string literal that is not blank, or a template literal: `throw "bad input"`;
// - A is `new X(msg, ...)` or `X(msg, ...)` / `a.b.X(msg, ...)` whose first argument is a
//   message, except calls on `Promise` (`Promise.reject(...)`);
// - A is `Object.assign(target, ...)`: the same test is applied to `target`, so
//   `throw Object.assign(new Error("bad"), { code: 1 })` counts.
//
// A message is a string literal that is not blank, a template literal, or a `+` chain with a
// string literal or a template literal somewhere in it.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as acorn from "acorn";
import * as walk from "acorn-walk";

// Longest rendering of a message printed; longer ones are cut and end in an ellipsis.
const MAX_MESSAGE = 120;

const PARSE_OPTIONS = {
  ecmaVersion: "latest",
  allowHashBang: true,
  allowReturnOutsideFunction: true,
  allowAwaitOutsideFunction: true,
  locations: true,
};

// Strict UTF-8: a file with invalid bytes is skipped rather than read with replacement
// characters.
const utf8 = new TextDecoder("utf-8", { fatal: true });

function isStringLiteral(node) {
  return node.type === "Literal" && typeof node.value === "string";
}

// A string literal with something other than white space in it.
function isNonBlankString(node) {
  return isStringLiteral(node) && node.value.trim() !== "";
}

// True when `node` is a string or template literal, or a `+` chain containing one.
function hasStringPart(node) {
  if (isStringLiteral(node) || node.type === "TemplateLiteral") return true;
  if (node.type === "BinaryExpression" && node.operator === "+") {
    return hasStringPart(node.left) || hasStringPart(node.right);
  }
  return false;
}

// True when `node` is a literal or formatted message.
function isMessage(node) {
  if (!node) return false;
  if (isStringLiteral(node)) return isNonBlankString(node);
  if (node.type === "TemplateLiteral") return true;
  if (node.type === "BinaryExpression" && node.operator === "+") {
    return hasStringPart(node.left) || hasStringPart(node.right);
  }
  return false;
}

// The expression inside any parentheses and `await`s.
function unwrap(node) {
  while (node && (node.type === "ParenthesizedExpression" || node.type === "AwaitExpression")) {
    node = node.type === "ParenthesizedExpression" ? node.expression : node.argument;
  }
  return node;
}

// `Obj.name`, written with a dot.
function isMemberOn(callee, objectName, propertyName) {
  return (
    callee.type === "MemberExpression" &&
    !callee.computed &&
    callee.object.type === "Identifier" &&
    callee.object.name === objectName &&
    (propertyName === undefined ||
      (callee.property.type === "Identifier" && callee.property.name === propertyName))
  );
}

// The node holding the message of a thrown expression, or null when the throw does not count.
function thrownMessage(argument) {
  let a = unwrap(argument);
  // Object.assign(new Error("..."), {...}) throws its first argument.
  while (a && a.type === "CallExpression" && isMemberOn(a.callee, "Object", "assign")) {
    a = unwrap(a.arguments[0]);
  }
  if (!a) return null;
  if (isStringLiteral(a)) return isNonBlankString(a) ? a : null;
  if (a.type === "TemplateLiteral") return a;
  if (a.type === "NewExpression" || a.type === "CallExpression") {
    if (a.type === "CallExpression" && isMemberOn(a.callee, "Promise")) return null;
    const first = a.arguments[0];
    return isMessage(first) ? first : null;
  }
  return null;
}

// A short one-line rendering of a message node.
function describe(node, source) {
  let text = isStringLiteral(node) ? node.value : source.slice(node.start, node.end);
  text = text.split(/\s+/).filter(Boolean).join(" ");
  if (text.length > MAX_MESSAGE) text = text.slice(0, MAX_MESSAGE - 1) + "\u2026";
  // A string literal may hold lone surrogates ("\ud800"); JSON readers reject those, so they
  // are written out as escapes instead.
  return text.replace(
    /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    (c) => "\\u" + c.charCodeAt(0).toString(16),
  );
}

// The program's tree: as a module first, then as a script; null when neither parses.
function parse(source) {
  for (const sourceType of ["module", "script"]) {
    try {
      return acorn.parse(source, { ...PARSE_OPTIONS, sourceType });
    } catch {
      // try the next source type
    }
  }
  return null;
}

// [line, message] for every counted throw in a program, in source order.
function throwSites(tree, source) {
  const sites = [];
  walk.simple(tree, {
    ThrowStatement(node) {
      const message = thrownMessage(node.argument);
      if (message) sites.push([node.start, node.loc.start.line, describe(message, source)]);
    },
  });
  sites.sort((x, y) => x[0] - y[0]);
  return sites.map(([, line, message]) => [line, message]);
}

function main() {
  const args = process.argv.slice(2);
  const summary = args.includes("--summary");
  const positional = args.filter((a) => a !== "--summary");
  if (positional.length !== 1 || positional[0].startsWith("-")) {
    process.stderr.write("usage: node js_throws.mjs [--summary] ROOT < filelist\n");
    process.exit(2);
  }
  const root = positional[0];

  const started = process.hrtime.bigint();
  const counts = { files: 0, parsed: 0, unreadable: 0, undecodable: 0, unparsable: 0, sites: 0 };
  const out = [];
  const list = readFileSync(0, "utf8");
  for (const line of list.split("\n")) {
    const rel = line.replace(/\r$/, "");
    if (!rel) continue;
    counts.files++;
    let bytes;
    try {
      bytes = readFileSync(join(root, rel));
    } catch {
      counts.unreadable++;
      continue;
    }
    let source;
    try {
      source = utf8.decode(bytes);
    } catch {
      counts.undecodable++;
      continue;
    }
    const tree = parse(source);
    if (!tree) {
      counts.unparsable++;
      continue;
    }
    counts.parsed++;
    for (const [lineNo, message] of throwSites(tree, source)) {
      counts.sites++;
      if (!summary) out.push(JSON.stringify({ path: rel, line: lineNo, message }));
    }
    // Flush in chunks so a large corpus does not hold every line in memory.
    if (out.length >= 4096) {
      process.stdout.write(out.join("\n") + "\n");
      out.length = 0;
    }
  }
  if (summary) {
    counts.seconds = Number(process.hrtime.bigint() - started) / 1e9;
    counts.seconds = Math.round(counts.seconds * 1000) / 1000;
    out.push(JSON.stringify(counts));
  }
  if (out.length) process.stdout.write(out.join("\n") + "\n");
}

main();
