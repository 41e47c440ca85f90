//! Python parsed by ruff's parser, laid out as the tree tree-sitter-python gives: the node kinds,
//! field names and byte ranges the analyses read (calls, imports, assignments, strings, loops,
//! functions, `try`). On the corpus's Python, ruff's parser is 8× as fast as tree-sitter's.
//!
//! Where the two trees differ, nothing the analyses read is lost: ruff keeps no node for
//! parentheses around an expression (resolving and folding look through them either way), and
//! comments are kept as ranges beside the tree, not as nodes. A file ruff rejects is left to
//! tree-sitter, which recovers from errors.
//!
//! ruff's tree is walked and dropped by recursion, so a file nested deeper than
//! [`MAX_NESTING`] would overflow a scanning thread's stack: such a file is left to tree-sitter,
//! which walks without recursion. The nesting is bounded from the tokens before any tree is built.

use super::tree::{Flat, SyntaxNode};
use ruff_python_ast::token::TokenKind;
use ruff_python_ast::visitor::source_order::{self as walk, SourceOrderVisitor, TraversalSignal};
use ruff_python_ast::{AnyNodeRef, Expr, Identifier, Number, Stmt, StringFlags};
use ruff_python_parser::{lexer, Mode};
use ruff_text_size::{Ranged, TextRange};
use std::ops::Range;

const NONE: u32 = u32::MAX;

/// The deepest nesting ruff's tree is built for. The corpus's Python reaches 120. On the 2 MiB
/// stack of a scanning thread, a debug build walks 4× this deep (`deep_files_stay_on_the_stack`).
const MAX_NESTING: usize = 500;

/// An upper bound on how deep `code`'s syntax tree nests: every node on a path from the root
/// holds a token of its own, and a path crosses one logical line per indented block. So the most
/// tokens on a logical line, plus the deepest indentation, bounds it.
fn nesting_bound(code: &str) -> usize {
    let mut tokens = lexer::lex(code, Mode::Module);
    let (mut line, mut longest, mut indent, mut deepest) = (0usize, 0usize, 0usize, 0usize);
    loop {
        match tokens.next_token() {
            TokenKind::EndOfFile => return longest.max(line) + deepest,
            TokenKind::Newline => longest = longest.max(std::mem::take(&mut line)),
            TokenKind::Indent => {
                indent += 1;
                deepest = deepest.max(indent);
            }
            TokenKind::Dedent => indent = indent.saturating_sub(1),
            TokenKind::Comment | TokenKind::NonLogicalNewline => {}
            _ => line += 1,
        }
    }
}

struct Data {
    kind: &'static str,
    field: Option<&'static str>,
    named: bool,
    start: u32,
    end: u32,
    first: u32,
    last: u32,
    next: u32,
}

/// A parsed Python file: its nodes (children in source order) and its comments.
pub(super) struct PyTree {
    nodes: Vec<Data>,
    pub comments: Vec<Range<usize>>,
}

#[derive(Clone, Copy)]
pub(super) struct PyNode<'t> {
    tree: &'t PyTree,
    id: u32,
}

impl PartialEq for PyNode<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id && std::ptr::eq(self.tree, other.tree)
    }
}

impl<'t> PyNode<'t> {
    fn data(&self) -> &'t Data {
        &self.tree.nodes[self.id as usize]
    }

    fn is_named(&self) -> bool {
        self.data().named
    }

    fn iter(&self) -> impl Iterator<Item = PyNode<'t>> + 't {
        let tree = self.tree;
        std::iter::successors(Some(self.data().first).filter(|&c| c != NONE), move |&c| {
            Some(tree.nodes[c as usize].next).filter(|&n| n != NONE)
        })
        .map(move |id| PyNode { tree, id })
    }
}

impl SyntaxNode for PyNode<'_> {
    fn kind(&self) -> &'static str {
        self.data().kind
    }
    fn start_byte(&self) -> usize {
        self.data().start as usize
    }
    fn end_byte(&self) -> usize {
        self.data().end as usize
    }
    fn child_by_field_name(&self, field: &str) -> Option<Self> {
        self.iter().find(|c| c.data().field == Some(field))
    }
    fn children_by_field_name(&self, field: &str) -> Vec<Self> {
        self.iter().filter(|c| c.data().field == Some(field)).collect()
    }
    fn children(&self) -> Vec<Self> {
        self.iter().collect()
    }
    fn named_children(&self) -> Vec<Self> {
        self.iter().filter(PyNode::is_named).collect()
    }
    fn named_child(&self, i: usize) -> Option<Self> {
        self.iter().filter(PyNode::is_named).nth(i)
    }
    fn named_child_count(&self) -> usize {
        self.iter().filter(PyNode::is_named).count()
    }
}

impl PyTree {
    /// `code` parsed, or `None` when it is not valid Python or nests too deep (tree-sitter then
    /// reads it).
    pub(super) fn parse(code: &str) -> Option<PyTree> {
        if nesting_bound(code) > MAX_NESTING {
            return None;
        }
        let parsed = ruff_python_parser::parse_module(code).ok()?;
        let comments = parsed.tokens().iter().filter(|t| t.kind() == TokenKind::Comment);
        let comments = comments.map(|t| t.start().to_usize()..t.end().to_usize()).collect();
        let mut b = Builder { code, nodes: Vec::new(), open: Vec::new(), counts: Vec::new(), field: None };
        b.open("module", None, 0..code.len() as u32);
        walk::walk_body(&mut b, &parsed.syntax().body);
        Some(PyTree { nodes: b.nodes, comments })
    }

    /// The walk the analyses make (see [`Flat`]), anonymous leaves left out.
    pub(super) fn flat(&self) -> Flat<PyNode<'_>> {
        let (mut nodes, mut kinds, mut parents) = (Vec::new(), Vec::new(), Vec::new());
        let mut stack = vec![(0u32, None::<u32>)];
        while let Some((id, parent)) = stack.pop() {
            let node = PyNode { tree: self, id };
            let d = node.data();
            if !d.named && d.first == NONE {
                continue;
            }
            let me = nodes.len() as u32;
            nodes.push(node);
            kinds.push(d.kind);
            parents.push(parent);
            stack.extend(node.iter().map(|c| (c.id, Some(me))));
        }
        Flat::from_parts(nodes, kinds, parents)
    }
}

fn span(r: TextRange) -> Range<u32> {
    r.start().to_u32()..r.end().to_u32()
}

struct Builder<'a> {
    code: &'a str,
    nodes: Vec<Data>,
    /// The open nodes, innermost last, each with the ruff node it stands for.
    open: Vec<(u32, Option<AnyNodeRef<'a>>)>,
    /// How many nodes each entered ruff node opened, to close them when it is left.
    counts: Vec<u32>,
    /// The field the next node takes in its parent, when the visit knows it better than the
    /// parent's shape does.
    field: Option<&'static str>,
}

impl<'a> Builder<'a> {
    fn push(&mut self, kind: &'static str, field: Option<&'static str>, named: bool, at: Range<u32>) -> u32 {
        let id = self.nodes.len() as u32;
        self.nodes.push(Data { kind, field, named, start: at.start, end: at.end, first: NONE, last: NONE, next: NONE });
        if let Some(&(parent, _)) = self.open.last() {
            let p = &mut self.nodes[parent as usize];
            let prev = std::mem::replace(&mut p.last, id);
            match prev {
                NONE => p.first = id,
                prev => self.nodes[prev as usize].next = id,
            }
        }
        id
    }

    fn leaf(&mut self, kind: &'static str, field: Option<&'static str>, at: Range<u32>) {
        self.push(kind, field, true, at);
    }

    fn open(&mut self, kind: &'static str, field: Option<&'static str>, at: Range<u32>) {
        let id = self.push(kind, field, true, at);
        self.open.push((id, None));
    }

    /// Opens the node a ruff node stands for; it is closed when the ruff node is left.
    fn enter(&mut self, kind: &'static str, field: Option<&'static str>, at: Range<u32>, node: AnyNodeRef<'a>) {
        let id = self.push(kind, field, true, at);
        self.open.push((id, Some(node)));
        *self.counts.last_mut().expect("entered") += 1;
    }

    fn close(&mut self) {
        self.open.pop();
    }

    /// The parent ruff node, when the innermost open node stands for one.
    fn parent(&self) -> Option<AnyNodeRef<'a>> {
        self.open.last().and_then(|(_, n)| *n)
    }

    /// The field `child` has in its parent, as tree-sitter-python names it.
    fn field_of(&mut self, child: AnyNodeRef<'a>) -> Option<&'static str> {
        if let Some(f) = self.field.take() {
            return Some(f);
        }
        let is = |e: &'a Expr| child.ptr_eq(AnyNodeRef::from(e));
        Some(match self.parent()? {
            AnyNodeRef::ExprCall(c) if is(&c.func) => "function",
            AnyNodeRef::ExprCall(_) if matches!(child, AnyNodeRef::Arguments(_)) => "arguments",
            AnyNodeRef::ExprAttribute(a) if is(&a.value) => "object",
            AnyNodeRef::ExprSubscript(s) if is(&s.value) => "value",
            AnyNodeRef::ExprSubscript(s) if is(&s.slice) => "subscript",
            AnyNodeRef::StmtWhile(w) if is(&w.test) => "condition",
            AnyNodeRef::StmtIf(i) if is(&i.test) => "condition",
            AnyNodeRef::ElifElseClause(c) if c.test.as_ref().is_some_and(is) => "condition",
            AnyNodeRef::StmtFor(f) if is(&f.target) => "left",
            AnyNodeRef::StmtFor(f) if is(&f.iter) => "right",
            AnyNodeRef::StmtAugAssign(a) if is(&a.target) => "left",
            AnyNodeRef::StmtAugAssign(a) if is(&a.value) => "right",
            AnyNodeRef::Keyword(k) if is(&k.value) => "value",
            AnyNodeRef::ExprNamed(n) if is(&n.target) => "name",
            AnyNodeRef::ExprNamed(n) if is(&n.value) => "value",
            AnyNodeRef::ExprLambda(l) if is(&l.body) => "body",
            _ => return None,
        })
    }

    /// Visits `e` as the `field` of the open node.
    fn visit_as(&mut self, field: &'static str, e: &'a Expr) {
        self.field = Some(field);
        self.visit_expr(e);
        self.field = None;
    }

    /// The first offset from `from` that is not blank, a comment or a line continuation: where
    /// a definition begins after its decorators, or a relative import's dots.
    fn skip_blank(&self, from: u32) -> u32 {
        let mut at = from as usize;
        let bytes = self.code.as_bytes();
        while at < bytes.len() {
            match bytes[at] {
                b' ' | b'\t' | b'\r' | b'\n' | b'\x0c' | b'\\' => at += 1,
                b'#' => at += self.code[at..].find('\n').unwrap_or(self.code.len() - at),
                _ => break,
            }
        }
        at as u32
    }

    /// A definition (`def`, `class`) with its decorators outside it, as tree-sitter nests them.
    fn definition(
        &mut self,
        kind: &'static str,
        field: Option<&'static str>,
        stmt: AnyNodeRef<'a>,
        decorators: &'a [ruff_python_ast::Decorator],
    ) {
        let at = span(stmt.range());
        match decorators.last() {
            Some(last) => {
                self.enter("decorated_definition", field, at.clone(), stmt);
                for d in decorators {
                    self.visit_decorator(d);
                }
                let start = self.skip_blank(last.end().to_u32());
                self.enter(kind, Some("definition"), start..at.end, stmt);
            }
            None => self.enter(kind, field, at, stmt),
        }
    }

    fn identifier(&mut self, field: Option<&'static str>, id: &Identifier) {
        self.leaf("identifier", field, span(id.range()));
    }

    /// `name` or `name as alias` in an import.
    fn alias(&mut self, alias: &'a ruff_python_ast::Alias) {
        match &alias.asname {
            Some(asname) => {
                self.open("aliased_import", Some("name"), span(alias.range()));
                self.leaf("dotted_name", Some("name"), span(alias.name.range()));
                self.identifier(Some("alias"), asname);
                self.close();
            }
            None => self.leaf("dotted_name", Some("name"), span(alias.name.range())),
        }
    }

    /// A string's opening and closing quotes around its content, as tree-sitter's leaves.
    fn quotes(&mut self, at: Range<u32>, flags: impl StringFlags, content: bool) {
        let open = at.start + flags.opener_len().to_u32();
        let close = (at.end - flags.closer_len().to_u32()).max(open);
        self.leaf("string_start", None, at.start..open);
        if content && close > open {
            self.leaf("string_content", None, open..close);
        }
        self.leaf("string_end", None, close..at.end);
    }

    /// Opens the node `node` stands for; returns whether its children are still to be visited.
    fn enter_node_kind(&mut self, node: AnyNodeRef<'a>, field: Option<&'static str>) -> TraversalSignal {
        use AnyNodeRef as N;
        let at = span(node.range());
        let kind = match node {
            N::StmtFunctionDef(f) => {
                self.definition("function_definition", field, node, &f.decorator_list);
                self.identifier(Some("name"), &f.name);
                if let Some(tp) = &f.type_params {
                    self.visit_type_params(tp);
                }
                self.field = Some("parameters");
                self.visit_parameters(&f.parameters);
                if let Some(r) = &f.returns {
                    self.visit_as("return_type", r);
                }
                self.block(&f.body);
                return TraversalSignal::Skip;
            }
            N::StmtClassDef(c) => {
                self.definition("class_definition", field, node, &c.decorator_list);
                self.identifier(Some("name"), &c.name);
                if let Some(tp) = &c.type_params {
                    self.visit_type_params(tp);
                }
                if let Some(args) = &c.arguments {
                    self.field = Some("superclasses");
                    self.visit_arguments(args);
                }
                self.block(&c.body);
                return TraversalSignal::Skip;
            }
            N::StmtAssign(a) => {
                // `a = b = c` is assignment(a, assignment(b, c)) in tree-sitter.
                self.enter("expression_statement", field, at.clone(), node);
                let end = at.end;
                for (k, t) in a.targets.iter().enumerate() {
                    let f = (k > 0).then_some("right");
                    self.enter("assignment", f, t.start().to_u32()..end, node);
                    self.visit_as("left", t);
                }
                self.visit_as("right", &a.value);
                return TraversalSignal::Skip;
            }
            N::StmtAnnAssign(a) => {
                self.enter("expression_statement", field, at.clone(), node);
                self.enter("assignment", None, at, node);
                self.visit_as("left", &a.target);
                self.visit_as("type", &a.annotation);
                if let Some(v) = &a.value {
                    self.visit_as("right", v);
                }
                return TraversalSignal::Skip;
            }
            N::StmtAugAssign(_) => {
                self.enter("expression_statement", field, at.clone(), node);
                self.enter("augmented_assignment", None, at, node);
                return TraversalSignal::Traverse;
            }
            N::StmtImport(i) => {
                self.enter("import_statement", field, at, node);
                for a in &i.names {
                    self.alias(a);
                }
                return TraversalSignal::Skip;
            }
            N::StmtImportFrom(i) => {
                self.enter("import_from_statement", field, at.clone(), node);
                let from = self.skip_blank(at.start + "from".len() as u32);
                match (&i.module, i.level) {
                    (Some(m), 0) => self.leaf("dotted_name", Some("module_name"), span(m.range())),
                    (m, level) => {
                        let end = m.as_ref().map_or(from + level, |m| m.end().to_u32());
                        self.leaf("relative_import", Some("module_name"), from..end);
                    }
                }
                for a in &i.names {
                    match a.name.as_str() {
                        "*" => self.leaf("wildcard_import", None, span(a.range())),
                        _ => self.alias(a),
                    }
                }
                return TraversalSignal::Skip;
            }
            N::StmtExpr(_) => "expression_statement",
            N::StmtWhile(_) => "while_statement",
            N::StmtFor(_) => "for_statement",
            N::StmtIf(_) => "if_statement",
            N::StmtTry(_) => "try_statement",
            N::StmtWith(_) => "with_statement",
            N::StmtReturn(_) => "return_statement",
            N::StmtDelete(_) => "delete_statement",
            N::StmtRaise(_) => "raise_statement",
            N::StmtAssert(_) => "assert_statement",
            N::StmtGlobal(_) => "global_statement",
            N::StmtNonlocal(_) => "nonlocal_statement",
            N::StmtPass(_) => "pass_statement",
            N::StmtBreak(_) => "break_statement",
            N::StmtContinue(_) => "continue_statement",
            N::StmtMatch(_) => "match_statement",
            N::MatchCase(_) => "case_clause",
            N::StmtTypeAlias(_) => "type_alias_statement",
            N::ElifElseClause(c) if c.test.is_some() => "elif_clause",
            N::ElifElseClause(_) => "else_clause",
            N::ExceptHandlerExceptHandler(_) => "except_clause",
            N::WithItem(_) => "with_item",
            N::Decorator(_) => "decorator",
            N::Parameters(_) => "parameters",
            N::ParameterWithDefault(p) if p.default.is_some() => "default_parameter",
            N::ParameterWithDefault(_) | N::Parameter(_) => "parameter",
            N::ExprName(_) => "identifier",
            N::ExprCall(_) => "call",
            N::Arguments(_) => "argument_list",
            N::Keyword(k) if k.arg.is_none() => "dictionary_splat",
            N::Keyword(_) => "keyword_argument",
            N::ExprStarred(_) => "list_splat",
            N::ExprAttribute(_) => "attribute",
            N::ExprSubscript(_) => "subscript",
            N::ExprSlice(_) => "slice",
            N::ExprBinOp(b) => {
                self.enter("binary_operator", field, at, node);
                self.visit_as("left", &b.left);
                let (from, to) = (b.left.end().to_u32(), b.right.start().to_u32());
                let op = b.op.as_str();
                let start = self.code[from as usize..to as usize].find(op).map_or(from, |i| from + i as u32);
                self.push(op, Some("operator"), false, start..start + op.len() as u32);
                self.visit_as("right", &b.right);
                return TraversalSignal::Skip;
            }
            N::ExprBoolOp(_) => "boolean_operator",
            N::ExprCompare(_) => "comparison_operator",
            N::ExprUnaryOp(u) if u.op.as_str() == "not" => "not_operator",
            N::ExprUnaryOp(_) => "unary_operator",
            N::ExprLambda(_) => "lambda",
            N::ExprIf(_) => "conditional_expression",
            N::ExprNamed(_) => "named_expression",
            N::ExprDict(_) => "dictionary",
            N::ExprSet(_) => "set",
            N::ExprList(_) => "list",
            N::ExprTuple(t) if t.parenthesized => "tuple",
            // `a, b` as a statement is the statement's own children in tree-sitter.
            N::ExprTuple(_) if matches!(self.parent(), Some(N::StmtExpr(_))) => return self.pass(field),
            N::ExprTuple(_) => "expression_list",
            N::ExprListComp(_) => "list_comprehension",
            N::ExprSetComp(_) => "set_comprehension",
            N::ExprDictComp(_) => "dictionary_comprehension",
            N::ExprGenerator(_) => "generator_expression",
            N::Comprehension(_) => "for_in_clause",
            N::ExprAwait(_) => "await",
            N::ExprYield(_) | N::ExprYieldFrom(_) => "yield",
            N::ExprNumberLiteral(n) => match n.value {
                Number::Int(_) => "integer",
                _ => "float",
            },
            N::ExprBooleanLiteral(b) if b.value => "true",
            N::ExprBooleanLiteral(_) => "false",
            N::ExprNoneLiteral(_) => "none",
            N::ExprEllipsisLiteral(_) => "ellipsis",
            N::ExprStringLiteral(s) if s.value.is_implicit_concatenated() => "concatenated_string",
            N::ExprBytesLiteral(s) if s.value.is_implicit_concatenated() => "concatenated_string",
            N::ExprFString(s) if s.value.is_implicit_concatenated() => "concatenated_string",
            N::ExprTString(s) if s.value.is_implicit_concatenated() => "concatenated_string",
            // One literal: its part is the string node, in the expression's field.
            N::ExprStringLiteral(_) | N::ExprBytesLiteral(_) | N::ExprFString(_) | N::ExprTString(_) => {
                return self.pass(field)
            }
            N::StringLiteral(s) => {
                self.enter("string", field, at.clone(), node);
                self.quotes(at, s.flags, true);
                return TraversalSignal::Skip;
            }
            N::BytesLiteral(s) => {
                self.enter("string", field, at.clone(), node);
                self.quotes(at, s.flags, true);
                return TraversalSignal::Skip;
            }
            N::FString(s) => {
                self.enter("string", field, at.clone(), node);
                let open = at.start + s.flags.opener_len().to_u32();
                self.leaf("string_start", None, at.start..open);
                return TraversalSignal::Traverse;
            }
            N::TString(s) => {
                self.enter("string", field, at.clone(), node);
                let open = at.start + s.flags.opener_len().to_u32();
                self.leaf("string_start", None, at.start..open);
                return TraversalSignal::Traverse;
            }
            N::InterpolatedElement(_) => "interpolation",
            N::InterpolatedStringLiteralElement(_) => "string_content",
            N::InterpolatedStringFormatSpec(_) => "format_specifier",
            _ => "expression",
        };
        self.enter(kind, field, at, node);
        TraversalSignal::Traverse
    }

    /// Opens no node for `node`: its children take its place and its field.
    fn pass(&mut self, field: Option<&'static str>) -> TraversalSignal {
        self.field = field;
        TraversalSignal::Traverse
    }

    /// A body as tree-sitter's `block`: the first of a statement's bodies is its `body`.
    fn block(&mut self, body: &'a [Stmt]) {
        let (Some(first), Some(last)) = (body.first(), body.last()) else { return };
        let parent = self.open.last().map_or(NONE, |(p, _)| *p);
        let field = (!self.has_field(parent, "body")).then_some("body");
        self.open("block", field, first.start().to_u32()..last.end().to_u32());
        walk::walk_body(self, body);
        self.close();
    }

    fn has_field(&self, node: u32, field: &str) -> bool {
        let mut c = self.nodes.get(node as usize).map_or(NONE, |n| n.first);
        while c != NONE {
            let d = &self.nodes[c as usize];
            if d.field == Some(field) {
                return true;
            }
            c = d.next;
        }
        false
    }
}

impl<'a> SourceOrderVisitor<'a> for Builder<'a> {
    fn enter_node(&mut self, node: AnyNodeRef<'a>) -> TraversalSignal {
        self.counts.push(0);
        let field = self.field_of(node);
        self.enter_node_kind(node, field)
    }

    fn leave_node(&mut self, node: AnyNodeRef<'a>) {
        let closer = match node {
            AnyNodeRef::FString(s) => Some(s.flags.closer_len()),
            AnyNodeRef::TString(s) => Some(s.flags.closer_len()),
            _ => None,
        };
        if let Some(len) = closer {
            let end = node.end().to_u32();
            self.leaf("string_end", None, end - len.to_u32()..end);
        }
        for _ in 0..self.counts.pop().unwrap_or(0) {
            self.close();
        }
    }

    fn visit_body(&mut self, body: &'a [Stmt]) {
        self.block(body);
    }

    fn visit_identifier(&mut self, id: &'a Identifier) {
        let field = match self.parent() {
            Some(AnyNodeRef::ExprAttribute(_)) => Some("attribute"),
            Some(AnyNodeRef::Keyword(_) | AnyNodeRef::Parameter(_)) => Some("name"),
            _ => None,
        };
        self.identifier(field, id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each way Python nests one node a token: unary signs, `not`, `await`, attribute and call
    /// chains, brackets, operator chains, `lambda`, conditional expressions.
    fn nested(depth: usize) -> Vec<String> {
        let r = |s: &str| s.repeat(depth);
        vec![
            format!("x = {}1\n", r("-")),
            format!("x = {}y\n", r("not ")),
            format!("async def f():\n    {}y{}\n", r("await ("), r(")")),
            format!("x = a{}\n", r(".b")),
            format!("x = f{}\n", r("()")),
            format!("x = {}{}\n", r("["), r("]")),
            format!("x = 'a'{}\n", r("+'a'")),
            format!("x = {}1\n", r("lambda: ")),
            format!("x = 1{}\n", r(" if c else 1")),
            format!("x = {}1{}\n", r("f("), r(")")),
        ]
    }

    /// A scanning thread's stack holds ruff's tree up to the nesting bound, built, walked and
    /// dropped; deeper files are left to tree-sitter and scanned all the same.
    #[test]
    fn deep_files_stay_on_the_stack() {
        let scan = || {
            for form in 0..nested(1).len() {
                // The deepest file of this form ruff's tree is built for.
                let depth = (1..MAX_NESTING).rev().find(|&d| nesting_bound(&nested(d)[form]) <= MAX_NESTING);
                let code = &nested(depth.expect("some depth fits"))[form];
                let tree = PyTree::parse(code).unwrap_or_else(|| panic!("ruff reads {}", &code[..40]));
                assert!(tree.flat().nodes.len() > MAX_NESTING / 3, "{}", &code[..40]);
            }
            // 100 000 levels of one form: a deeper file than any form's 2 000 would take too long,
            // as the analyses look up each call's enclosing function through every level.
            let deepest = nested(100_000).swap_remove(0);
            for code in nested(MAX_NESTING * 4).into_iter().chain([deepest]) {
                assert!(PyTree::parse(&code).is_none(), "too deep for ruff's tree: {}", &code[..40]);
                super::super::scripts::scan(super::super::lang::Lang::Python, &code);
            }
        };
        std::thread::Builder::new().stack_size(2 << 20).spawn(scan).unwrap().join().unwrap();
    }

    #[test]
    fn the_bound_counts_tokens_per_logical_line_and_indentation() {
        assert_eq!(nesting_bound("x = (1 +\n  2)  # note\n"), 7);
        assert_eq!(nesting_bound("if a:\n    if b:\n        c\n"), 3 + 2);
    }
}
