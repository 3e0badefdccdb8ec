/// One small program per grammar, with the token kinds chosen positions must get.
/// The expectations are what a reader would call each token; where a query
/// makes a legitimate but different choice the sample avoids that token.
struct LanguageSample: Sendable, CustomTestStringConvertible {
    struct Expectation: Sendable {
        var token: String
        var occurrence: Int
        var kind: TokenKind
    }

    var language: String
    var code: String
    var expectations: [Expectation]

    var testDescription: String { language }
}

import Testing
import Tidemark

extension LanguageSample {
    static let all: [LanguageSample] = [
        LanguageSample(
            language: "swift",
            code: #"""
                import Foundation

                // Greets someone.
                struct Greeter {
                    let name: String
                    func greet(times: Int = 2) -> String {
                        return "Hello, \(name)!" + String(repeating: "!", count: times * 3)
                    }
                }
                let value = Greeter(name: "world").greet()
                """#,
            expectations: [
                .init(token: #"import"#, occurrence: 0, kind: .keyword),
                .init(token: #"// Greets someone."#, occurrence: 0, kind: .comment),
                .init(token: #"struct"#, occurrence: 0, kind: .keyword),
                .init(token: #"Greeter"#, occurrence: 0, kind: .type),
                .init(token: #"func"#, occurrence: 0, kind: .keyword),
                .init(token: #"greet"#, occurrence: 0, kind: .function),
                .init(token: #"Int"#, occurrence: 0, kind: .type),
                .init(token: #"2"#, occurrence: 0, kind: .number),
                .init(token: #"return"#, occurrence: 0, kind: .keyword),
                .init(token: #""Hello, "#, occurrence: 0, kind: .string),
                .init(token: #"3"#, occurrence: 0, kind: .number),
            ]),
        LanguageSample(
            language: "c",
            code: #"""
                #include <stdio.h>
                #define MAX_LEN 16

                /* Adds two numbers. */
                static int add(int a, int b) {
                    return a + b; // sum
                }

                int main(void) {
                    const char *name = "world\n";
                    for (int i = 0; i < MAX_LEN; i++) {
                        if (i % 2 == 0) continue;
                    }
                    printf("hello %s %d\n", name, add(1, 2));
                    return 0;
                }
                """#,
            expectations: [
                .init(token: #"#include"#, occurrence: 0, kind: .keyword),
                .init(token: #"<stdio.h>"#, occurrence: 0, kind: .string),
                .init(token: #"/* Adds two numbers. */"#, occurrence: 0, kind: .comment),
                .init(token: #"add"#, occurrence: 0, kind: .function),
                .init(token: #"int"#, occurrence: 0, kind: .type),
                .init(token: #"return"#, occurrence: 0, kind: .keyword),
                .init(token: #""world\n""#, occurrence: 0, kind: .string),
                .init(token: #"MAX_LEN"#, occurrence: 1, kind: .constant),
                .init(token: #"0"#, occurrence: 0, kind: .number),
                .init(token: #"printf"#, occurrence: 0, kind: .function),
            ]),
        LanguageSample(
            language: "cpp",
            code: #"""
                #include <vector>
                namespace demo {
                template <typename T>
                class Stack {
                public:
                    void push(const T& value) { items_.push_back(value); }
                    bool empty() const noexcept { return items_.empty(); }
                private:
                    std::vector<T> items_;
                };
                }  // namespace demo

                int main() {
                    auto s = demo::Stack<int>{};
                    s.push(42);
                    std::string text = "done";
                    return s.empty() ? 1 : 0;
                }
                """#,
            expectations: [
                .init(token: #"#include"#, occurrence: 0, kind: .keyword),
                .init(token: #"template"#, occurrence: 0, kind: .keyword),
                .init(token: #"class"#, occurrence: 0, kind: .keyword),
                .init(token: #"Stack"#, occurrence: 0, kind: .type),
                .init(token: #"push"#, occurrence: 0, kind: .function),
                .init(token: #"42"#, occurrence: 0, kind: .number),
                .init(token: #""done""#, occurrence: 0, kind: .string),
                .init(token: #"// namespace demo"#, occurrence: 0, kind: .comment),
                .init(token: #"return"#, occurrence: 0, kind: .keyword),
            ]),
        LanguageSample(
            language: "c_sharp",
            code: #"""
                using System;
                using System.Collections.Generic;

                namespace Demo
                {
                    // A simple greeter.
                    public class Greeter
                    {
                        private readonly string _name;
                        public Greeter(string name) { _name = name; }
                        public string Greet(int times)
                        {
                            var parts = new List<string>();
                            for (var i = 0; i < times; i++) parts.Add($"Hello {_name}!");
                            return string.Join(", ", parts);
                        }
                    }
                }
                """#,
            expectations: [
                .init(token: #"using"#, occurrence: 0, kind: .keyword),
                .init(token: #"// A simple greeter."#, occurrence: 0, kind: .comment),
                .init(token: #"class"#, occurrence: 0, kind: .keyword),
                .init(token: #"Greeter"#, occurrence: 0, kind: .type),
                .init(token: #"Greet"#, occurrence: 2, kind: .function),
                .init(token: #"0"#, occurrence: 0, kind: .number),
                .init(token: #"", ""#, occurrence: 0, kind: .string),
                .init(token: #"return"#, occurrence: 0, kind: .keyword),
                .init(token: #"Demo"#, occurrence: 0, kind: .namespace),
            ]),
        LanguageSample(
            language: "python",
            code: #"""
                """Inventory helpers."""
                import json

                MAX_ITEMS = 1_000


                class Item:
                    def total(self, quantity: int) -> float:
                        # Prices are stored in euros.
                        return round(self.price * quantity, 2)


                def parse(text: str) -> list[Item]:
                    data = json.loads(text)
                    return [Item() for _ in range(len(data))] if data else None
                """#,
            expectations: [
                .init(token: #""""Inventory helpers.""""#, occurrence: 0, kind: .string),
                .init(token: #"import"#, occurrence: 0, kind: .keyword),
                .init(token: #"MAX_ITEMS"#, occurrence: 0, kind: .constant),
                .init(token: #"1_000"#, occurrence: 0, kind: .number),
                .init(token: #"class"#, occurrence: 0, kind: .keyword),
                .init(token: #"Item"#, occurrence: 0, kind: .type),
                .init(token: #"def"#, occurrence: 0, kind: .keyword),
                .init(token: #"total"#, occurrence: 0, kind: .function),
                .init(token: #"# Prices are stored in euros."#, occurrence: 0, kind: .comment),
                .init(token: #"round"#, occurrence: 0, kind: .builtin),
                .init(token: #"None"#, occurrence: 0, kind: .constant),
            ]),
        LanguageSample(
            language: "javascript",
            code: #"""
                import { readFile } from "fs/promises";

                // Counts the words of a file.
                export async function countWords(path) {
                  const text = await readFile(path, "utf8");
                  const words = text.split(/\s+/).filter(Boolean);
                  return { path, count: words.length, ratio: 0.5 };
                }

                class Counter extends Map {
                  add(word) { this.set(word, (this.get(word) ?? 0) + 1); return this; }
                }

                const App = () => <div className="app">{`total: ${1 + 2}`}</div>;
                console.log(new Counter().add("a"), null, true);
                """#,
            expectations: [
                .init(token: #"import"#, occurrence: 0, kind: .keyword),
                .init(token: #""fs/promises""#, occurrence: 0, kind: .string),
                .init(token: #"// Counts the words of a file."#, occurrence: 0, kind: .comment),
                .init(token: #"function"#, occurrence: 0, kind: .keyword),
                .init(token: #"countWords"#, occurrence: 0, kind: .function),
                .init(token: #"0.5"#, occurrence: 0, kind: .number),
                .init(token: #"class"#, occurrence: 0, kind: .keyword),
                .init(token: #"div"#, occurrence: 0, kind: .tag),
                .init(token: #"className"#, occurrence: 0, kind: .attribute),
            ]),
        LanguageSample(
            language: "typescript",
            code: #"""
                interface User {
                  id: number;
                  name: string;
                  tags?: readonly string[];
                }

                // Returns the display name.
                export function displayName(user: User): string {
                  return `${user.name} (#${user.id})`;
                }

                type Handler<T> = (value: T) => void;
                enum Color { Red = "red", Green = "green" }
                const handlers: Map<string, Handler<User>> = new Map();
                let count: number = 42 as number;
                """#,
            expectations: [
                .init(token: #"interface"#, occurrence: 0, kind: .keyword),
                .init(token: #"User"#, occurrence: 0, kind: .type),
                .init(token: #"number"#, occurrence: 0, kind: .type),
                .init(token: #"// Returns the display name."#, occurrence: 0, kind: .comment),
                .init(token: #"displayName"#, occurrence: 0, kind: .function),
                .init(token: #""red""#, occurrence: 0, kind: .string),
                .init(token: #"42"#, occurrence: 0, kind: .number),
                .init(token: #"enum"#, occurrence: 0, kind: .keyword),
            ]),
        LanguageSample(
            language: "tsx",
            code: #"""
                import React from "react";

                type Props = { title: string; count: number };

                // A small counter component.
                export function Counter({ title, count }: Props): JSX.Element {
                  const label: string = `${title}: ${count}`;
                  return (
                    <div className="counter" data-count={count}>
                      <h1>{label}</h1>
                    </div>
                  );
                }
                """#,
            expectations: [
                .init(token: #"import"#, occurrence: 0, kind: .keyword),
                .init(token: #""react""#, occurrence: 0, kind: .string),
                .init(token: #"// A small counter component."#, occurrence: 0, kind: .comment),
                .init(token: #"const"#, occurrence: 0, kind: .keyword),
                .init(token: #"string"#, occurrence: 1, kind: .type),
                .init(token: #"div"#, occurrence: 0, kind: .tag),
                .init(token: #"className"#, occurrence: 0, kind: .attribute),
                .init(token: #""counter""#, occurrence: 0, kind: .string),
            ]),
        LanguageSample(
            language: "go",
            code: #"""
                package main

                import (
                	"fmt"
                	"strings"
                )

                // Point is a 2D point.
                type Point struct {
                	X, Y int
                }

                func (p Point) String() string {
                	return fmt.Sprintf("(%d, %d)", p.X, p.Y)
                }

                func main() {
                	pts := []Point{{1, 2}, {3, 4}}
                	for i, p := range pts {
                		if i > 0 {
                			fmt.Println(strings.ToUpper(p.String()), len(pts), 3.14, nil, true)
                		}
                	}
                }
                """#,
            expectations: [
                .init(token: #"package"#, occurrence: 0, kind: .keyword),
                .init(token: #""fmt""#, occurrence: 0, kind: .string),
                .init(token: #"// Point is a 2D point."#, occurrence: 0, kind: .comment),
                .init(token: #"func"#, occurrence: 0, kind: .keyword),
                .init(token: #"String"#, occurrence: 0, kind: .function),
                .init(token: #"Point"#, occurrence: 1, kind: .type),
                .init(token: #"main"#, occurrence: 1, kind: .function),
                .init(token: #"3.14"#, occurrence: 0, kind: .number),
                .init(token: #"len"#, occurrence: 0, kind: .builtin),
            ]),
        LanguageSample(
            language: "rust",
            code: #"""
                use std::collections::HashMap;

                /// Counts words.
                pub fn count_words(text: &str) -> HashMap<String, usize> {
                    let mut counts = HashMap::new();
                    for word in text.split_whitespace() {
                        *counts.entry(word.to_lowercase()).or_insert(0) += 1;
                    }
                    counts
                }

                #[derive(Debug, Clone)]
                struct Config { name: String, retries: u32 }

                fn main() {
                    let c = Config { name: "demo".to_string(), retries: 3 };
                    // Print it.
                    println!("{:?} {}", c, count_words("a b a").len());
                    let _ok: Option<bool> = Some(true);
                }
                """#,
            expectations: [
                .init(token: #"use"#, occurrence: 0, kind: .keyword),
                .init(token: #"/// Counts words."#, occurrence: 0, kind: .comment),
                .init(token: #"fn"#, occurrence: 0, kind: .keyword),
                .init(token: #"count_words"#, occurrence: 0, kind: .function),
                .init(token: #"HashMap"#, occurrence: 0, kind: .type),
                .init(token: #"struct"#, occurrence: 0, kind: .keyword),
                .init(token: #"Config"#, occurrence: 0, kind: .type),
                .init(token: #""demo""#, occurrence: 0, kind: .string),
                .init(token: #"derive"#, occurrence: 0, kind: .attribute),
            ]),
        LanguageSample(
            language: "java",
            code: #"""
                package demo;

                import java.util.List;

                /** A greeter. */
                public class Greeter {
                    private static final int MAX = 10;
                    private final String name;

                    public Greeter(String name) { this.name = name; }

                    @Override
                    public String toString() {
                        // Build the greeting.
                        return "Hello " + name + " " + List.of(1, 2).size() + 3.5;
                    }

                    public static void main(String[] args) {
                        for (int i = 0; i < MAX; i++) { if (i % 2 == 0) continue; }
                        System.out.println(new Greeter("world"));
                    }
                }
                """#,
            expectations: [
                .init(token: #"package"#, occurrence: 0, kind: .keyword),
                .init(token: #"/** A greeter. */"#, occurrence: 0, kind: .comment),
                .init(token: #"class"#, occurrence: 0, kind: .keyword),
                .init(token: #"Greeter"#, occurrence: 0, kind: .type),
                .init(token: #"MAX"#, occurrence: 0, kind: .constant),
                .init(token: #"10"#, occurrence: 0, kind: .number),
                .init(token: #"toString"#, occurrence: 0, kind: .function),
                .init(token: #""Hello ""#, occurrence: 0, kind: .string),
                .init(token: #"// Build the greeting."#, occurrence: 0, kind: .comment),
                .init(token: #"Override"#, occurrence: 0, kind: .attribute),
            ]),
        LanguageSample(
            language: "kotlin",
            code: #"""
                package demo.app

                import kotlin.math.max

                // Scales a point.
                data class Point(val x: Int, val y: Double = 1.5)

                fun Point.scale(factor: Int): Point {
                    val label = "x=$x, y=${y * 2}"
                    println(label)
                    return Point(x * factor, max(y, 0.0) + 0x1F)
                }
                """#,
            expectations: [
                .init(token: #"package"#, occurrence: 0, kind: .keyword),
                .init(token: #"demo"#, occurrence: 0, kind: .namespace),
                .init(token: #"// Scales a point."#, occurrence: 0, kind: .comment),
                .init(token: #"data"#, occurrence: 0, kind: .keyword),
                .init(token: #"class"#, occurrence: 0, kind: .keyword),
                .init(token: #"Point"#, occurrence: 0, kind: .type),
                .init(token: #"val"#, occurrence: 0, kind: .keyword),
                .init(token: #"fun"#, occurrence: 0, kind: .keyword),
                .init(token: #"scale"#, occurrence: 0, kind: .function),
                .init(token: #""x="#, occurrence: 0, kind: .string),
                .init(token: #"println"#, occurrence: 0, kind: .builtin),
                .init(token: #"return"#, occurrence: 0, kind: .keyword),
                .init(token: #"0x1F"#, occurrence: 0, kind: .number),
            ]),
        LanguageSample(
            language: "ruby",
            code: #"""
                require "json"

                # A tiny stack.
                class Stack
                  attr_reader :items

                  def initialize(items = [])
                    @items = items
                  end

                  def push(value)
                    @items << value
                    self
                  end

                  def to_s
                    "Stack(#{@items.size})"
                  end
                end

                stack = Stack.new.push(42).push(:sym)
                puts stack.to_s if stack.items.any?
                """#,
            expectations: [
                .init(token: #"require"#, occurrence: 0, kind: .builtin),
                .init(token: #""json""#, occurrence: 0, kind: .string),
                .init(token: #"# A tiny stack."#, occurrence: 0, kind: .comment),
                .init(token: #"class"#, occurrence: 0, kind: .keyword),
                .init(token: #"def"#, occurrence: 0, kind: .keyword),
                .init(token: #"initialize"#, occurrence: 0, kind: .function),
                .init(token: #"@items"#, occurrence: 0, kind: .property),
                .init(token: #":sym"#, occurrence: 0, kind: .constant),
                .init(token: #"42"#, occurrence: 0, kind: .number),
            ]),
        LanguageSample(
            language: "bash",
            code: #"""
                #!/usr/bin/env bash
                set -euo pipefail

                # Greets everyone given on the command line.
                greet() {
                  local name="$1"
                  echo "Hello, ${name}!"
                }

                for person in "$@"; do
                  if [[ -n "$person" ]]; then
                    greet "$person"
                  fi
                done
                export COUNT=$(( 1 + 2 ))
                """#,
            expectations: [
                .init(token: #"# Greets everyone given on the command line."#, occurrence: 0, kind: .comment),
                .init(token: #"greet"#, occurrence: 0, kind: .function),
                
                .init(token: #"for"#, occurrence: 0, kind: .keyword),
                .init(token: #""Hello, "#, occurrence: 0, kind: .string),
                .init(token: #"echo"#, occurrence: 0, kind: .function),
                .init(token: #"if"#, occurrence: 0, kind: .keyword),
                .init(token: #"export"#, occurrence: 0, kind: .keyword),
            ]),
        LanguageSample(
            language: "sql",
            code: #"""
                -- Top customers by revenue.
                SELECT c.name, SUM(o.total) AS revenue
                FROM customers AS c
                JOIN orders AS o ON o.customer_id = c.id
                WHERE o.created_at >= '2024-01-01' AND o.status <> 'cancelled'
                GROUP BY c.name
                ORDER BY revenue DESC
                LIMIT 10;

                CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                INSERT INTO items (id, name) VALUES (1, 'pen');
                """#,
            expectations: [
                .init(token: #"-- Top customers by revenue."#, occurrence: 0, kind: .comment),
                .init(token: #"SELECT"#, occurrence: 0, kind: .keyword),
                .init(token: #"SUM"#, occurrence: 0, kind: .function),
                .init(token: #"'2024-01-01'"#, occurrence: 0, kind: .string),
                .init(token: #"10"#, occurrence: 0, kind: .number),
                .init(token: #"CREATE"#, occurrence: 0, kind: .keyword),
                .init(token: #"customers"#, occurrence: 1, kind: .type),
            ]),
        LanguageSample(
            language: "yaml",
            code: #"""
                # Service configuration
                name: demo-service
                version: 3
                enabled: true
                ratio: 0.75
                owner: null
                tags:
                  - web
                  - "api"
                limits: { cpu: 2, memory: '512Mi' }
                defaults: &defaults
                  retries: 3
                prod:
                  <<: *defaults
                """#,
            expectations: [
                .init(token: #"# Service configuration"#, occurrence: 0, kind: .comment),
                .init(token: #"name"#, occurrence: 0, kind: .property),
                .init(token: #"demo-service"#, occurrence: 0, kind: .string),
                .init(token: #"3"#, occurrence: 0, kind: .number),
                .init(token: #"true"#, occurrence: 0, kind: .constant),
                .init(token: #""api""#, occurrence: 0, kind: .string),
                .init(token: #"defaults"#, occurrence: 1, kind: .label),
            ]),
        LanguageSample(
            language: "json",
            code: #"""
                {
                  "name": "demo",
                  "version": 3,
                  "enabled": true,
                  "ratio": 0.75,
                  "owner": null,
                  "tags": ["web", "api\n"],
                  "nested": { "deep": [1, 2, 3] }
                }
                """#,
            expectations: [
                .init(token: #""name""#, occurrence: 0, kind: .property),
                .init(token: #""demo""#, occurrence: 0, kind: .string),
                .init(token: #"3"#, occurrence: 0, kind: .number),
                .init(token: #"true"#, occurrence: 0, kind: .constant),
                .init(token: #"null"#, occurrence: 0, kind: .constant),
                .init(token: #"\n"#, occurrence: 0, kind: .escape),
            ]),
        LanguageSample(
            language: "html",
            code: #"""
                <!DOCTYPE html>
                <html lang="en">
                  <head>
                    <title>Demo</title>
                  </head>
                  <body>
                    <!-- main content -->
                    <p class="intro">Hello &amp; welcome</p>
                    <img src="logo.png" alt="Logo">
                  </body>
                </html>
                """#,
            expectations: [
                .init(token: #"html"#, occurrence: 1, kind: .tag),
                .init(token: #"lang"#, occurrence: 0, kind: .attribute),
                .init(token: #"en"#, occurrence: 0, kind: .string),
                .init(token: #"<!-- main content -->"#, occurrence: 0, kind: .comment),
                .init(token: #"p"#, occurrence: 0, kind: .tag),
            ]),
        LanguageSample(
            language: "css",
            code: #"""
                /* Base styles */
                @import url("theme.css");

                :root {
                  --accent: #3366ff;
                }

                body > .card:hover,
                #main a::before {
                  color: var(--accent);
                  margin: 0 auto 12px;
                  font-family: "Inter", sans-serif !important;
                }

                @media (max-width: 600px) {
                  .card { display: none; }
                }
                """#,
            expectations: [
                .init(token: #"/* Base styles */"#, occurrence: 0, kind: .comment),
                .init(token: #"@import"#, occurrence: 0, kind: .keyword),
                .init(token: #"body"#, occurrence: 0, kind: .tag),
                .init(token: #"color"#, occurrence: 0, kind: .property),
                .init(token: #"600"#, occurrence: 0, kind: .number),
                .init(token: #""Inter""#, occurrence: 0, kind: .string),
                .init(token: #"@media"#, occurrence: 0, kind: .keyword),
                .init(token: #"hover"#, occurrence: 0, kind: .attribute),
                .init(token: #"--accent"#, occurrence: 0, kind: .variable),
            ]),
    ]
}
