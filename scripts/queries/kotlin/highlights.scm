; Kotlin highlights for the fwcd tree-sitter-kotlin grammar, the version
; bundled in tree-sitter-language-pack 0.6.1 (ABI 14). Written for Tidemark
; against that grammar's src/node-types.json; no query on PyPI matches it.
;
; Layout: generic patterns first, specific ones after. TidemarkHighlight
; lets the capture whose node is pinned by more context (or by a text
; predicate) win over a plainer one, and breaks ties in favour of the later
; pattern, so e.g. a function name is `@function`, not `@variable`.
; Nested captures resolve innermost-first: `@none` on an interpolation
; keeps the string colour from leaking into the embedded expression.

; ---- Identifiers ---------------------------------------------------------

(simple_identifier) @variable

(type_identifier) @type

; SCREAMING_CASE names are constants by convention.
((simple_identifier) @constant
  (#match? @constant "^[A-Z][A-Z0-9_]*$"))

; The implicit lambda parameter.
((simple_identifier) @variable.builtin
  (#eq? @variable.builtin "it"))

(this_expression) @variable.builtin

(super_expression) @variable.builtin

; ---- Declarations --------------------------------------------------------

(class_declaration
  (type_identifier) @type.definition)

(object_declaration
  (type_identifier) @type.definition)

(companion_object
  (type_identifier) @type.definition)

(type_alias
  (type_identifier) @type.definition)

(type_parameter
  (type_identifier) @type)

(enum_entry
  (simple_identifier) @constant)

(function_declaration
  (simple_identifier) @function)

(class_parameter
  (simple_identifier) @property)

(class_body
  (property_declaration
    (variable_declaration
      (simple_identifier) @property)))

(parameter
  (simple_identifier) @variable.parameter)

(parameter_with_optional_type
  (simple_identifier) @variable.parameter)

(lambda_parameters
  (variable_declaration
    (simple_identifier) @variable.parameter))

(catch_block
  (simple_identifier) @variable.parameter)

; ---- Member access and calls ---------------------------------------------

(navigation_expression
  (navigation_suffix
    (simple_identifier) @property))

(call_expression
  (simple_identifier) @function.call)

(call_expression
  (navigation_expression
    (navigation_suffix
      (simple_identifier) @function.method)))

; `Point(1, 2)`: calling a capitalized name constructs an instance.
((call_expression
  (simple_identifier) @constructor)
  (#match? @constructor "^[A-Z]"))

(constructor_invocation
  (user_type
    (type_identifier) @constructor))

(callable_reference
  (simple_identifier) @function)

; Standard-library functions that read like language constructs.
((call_expression
  (simple_identifier) @function.builtin)
  (#any-of? @function.builtin
    "print" "println" "readln" "readLine" "require" "requireNotNull" "check"
    "checkNotNull" "error" "TODO" "assert" "lazy" "repeat" "run" "with"
    "listOf" "listOfNotNull" "mutableListOf" "arrayListOf" "setOf" "mutableSetOf"
    "mapOf" "mutableMapOf" "hashMapOf" "arrayOf" "emptyList" "emptySet" "emptyMap"
    "sequenceOf" "buildList" "buildSet" "buildMap" "buildString" "maxOf" "minOf"))

; Scope functions called on a receiver.
((call_expression
  (navigation_expression
    (navigation_suffix
      (simple_identifier) @function.builtin)))
  (#any-of? @function.builtin "let" "also" "apply" "run" "takeIf" "takeUnless" "use"))

; ---- Packages, imports, annotations, labels ------------------------------

(package_header
  (identifier
    (simple_identifier) @module))

(import_header
  (identifier
    (simple_identifier) @module))

(import_alias
  (type_identifier) @type)

(annotation
  "@" @attribute)

(annotation
  (user_type
    (type_identifier) @attribute))

(annotation
  (constructor_invocation
    (user_type
      (type_identifier) @attribute)))

(annotation
  (use_site_target) @attribute)

(file_annotation
  [
    "@"
    "file"
  ] @attribute)

(file_annotation
  (constructor_invocation
    (user_type
      (type_identifier) @attribute)))

(file_annotation
  (user_type
    (type_identifier) @attribute))

(label) @label

; ---- Keywords ------------------------------------------------------------

[
  "package"
  "import"
] @keyword.import

[
  "class"
  "interface"
  "object"
  "typealias"
  "enum"
  "companion"
  "constructor"
  "init"
  "by"
  "where"
  "get"
  "set"
] @keyword

(binding_pattern_kind) @keyword

"fun" @keyword.function

[
  (visibility_modifier)
  (member_modifier)
  (class_modifier)
  (function_modifier)
  (property_modifier)
  (inheritance_modifier)
  (parameter_modifier)
  (platform_modifier)
  (reification_modifier)
  (variance_modifier)
] @keyword.modifier

[
  "if"
  "else"
  "when"
] @keyword.conditional

[
  "for"
  "while"
  "do"
  "continue"
  "continue@"
  "break"
  "break@"
] @keyword.repeat

[
  "return"
  "return@"
] @keyword.return

[
  "try"
  "catch"
  "finally"
  "throw"
] @keyword.exception

[
  "in"
  "!in"
  "is"
  "!is"
  "as"
  "as?"
] @keyword.operator

(shebang_line) @keyword.directive

; ---- Literals ------------------------------------------------------------

[
  (integer_literal)
  (hex_literal)
  (bin_literal)
  (long_literal)
  (unsigned_literal)
] @number

(real_literal) @number.float

(boolean_literal) @boolean

(null_literal) @constant.builtin

(string_literal) @string

(character_literal) @character

(character_escape_seq) @string.escape

; An interpolated expression is code, not string.
(interpolated_expression) @none

(interpolated_identifier) @variable

(string_literal
  [
    "$"
    "${"
    "}"
  ] @punctuation.special)

; ---- Comments ------------------------------------------------------------

[
  (line_comment)
  (multiline_comment)
] @comment

; ---- Operators and punctuation -------------------------------------------

[
  "+"
  "-"
  "*"
  "/"
  "%"
  "="
  "+="
  "-="
  "*="
  "/="
  "%="
  "=="
  "!="
  "==="
  "!=="
  "<"
  ">"
  "<="
  ">="
  "&&"
  "||"
  "!"
  "!!"
  "++"
  "--"
  "?:"
  "?."
  ".."
  "->"
  "::"
] @operator

[
  "("
  ")"
  "["
  "]"
  "{"
  "}"
] @punctuation.bracket

(type_arguments
  [
    "<"
    ">"
  ] @punctuation.bracket)

(type_parameters
  [
    "<"
    ">"
  ] @punctuation.bracket)

[
  "."
  ","
  ";"
  ":"
] @punctuation.delimiter
