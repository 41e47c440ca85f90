//! A script's syntax tree walked once: every node but the anonymous leaves (punctuation,
//! keywords), with its kind and parent, in the order the analyses visit it. One walk with one
//! cursor replaces a cursor per node, a string lookup per `kind()` and the parent searches of
//! `Node::parent` (each a descent from the root).
//!
//! The analyses read a tree through [`SyntaxNode`]: tree-sitter's nodes, or Python parsed by
//! ruff's parser and laid out as tree-sitter-python would give it ([`super::python`]).

use super::lang::Lang;
use std::sync::OnceLock;
use tree_sitter::Node;

/// What the analyses ask of a syntax node: tree-sitter's kind and field names, byte offsets.
pub(super) trait SyntaxNode: Copy + PartialEq {
    fn kind(&self) -> &'static str;
    fn start_byte(&self) -> usize;
    fn end_byte(&self) -> usize;
    fn child_by_field_name(&self, field: &str) -> Option<Self>;
    fn children_by_field_name(&self, field: &str) -> Vec<Self>;
    fn children(&self) -> Vec<Self>;
    fn named_children(&self) -> Vec<Self>;
    fn named_child(&self, i: usize) -> Option<Self>;
    fn named_child_count(&self) -> usize;
}

impl SyntaxNode for Node<'_> {
    fn kind(&self) -> &'static str {
        Node::kind(self)
    }
    fn start_byte(&self) -> usize {
        Node::start_byte(self)
    }
    fn end_byte(&self) -> usize {
        Node::end_byte(self)
    }
    fn child_by_field_name(&self, field: &str) -> Option<Self> {
        Node::child_by_field_name(self, field)
    }
    fn children_by_field_name(&self, field: &str) -> Vec<Self> {
        Node::children_by_field_name(self, field, &mut self.walk()).collect()
    }
    fn children(&self) -> Vec<Self> {
        Node::children(self, &mut self.walk()).collect()
    }
    fn named_children(&self) -> Vec<Self> {
        Node::named_children(self, &mut self.walk()).collect()
    }
    fn named_child(&self, i: usize) -> Option<Self> {
        Node::named_child(self, i)
    }
    fn named_child_count(&self) -> usize {
        Node::named_child_count(self)
    }
}

pub(super) struct Flat<N> {
    pub nodes: Vec<N>,
    pub kinds: Vec<&'static str>,
    parents: Vec<Option<u32>>,
}

/// Node kind names by kind id, per grammar.
fn kind_names(lang: Lang) -> &'static [&'static str] {
    static TABLES: [OnceLock<Vec<&'static str>>; 4] = [const { OnceLock::new() }; 4];
    let slot = match lang {
        Lang::Python => 0,
        Lang::Shell => 1,
        Lang::JavaScript => 2,
        Lang::TypeScript => 3,
    };
    TABLES[slot].get_or_init(|| {
        let g = lang.grammar();
        (0..g.node_kind_count()).map(|id| g.node_kind_for_id(id as u16).unwrap_or("")).collect()
    })
}

impl<'t> Flat<Node<'t>> {
    /// Depth first, last child first: the order the scanner's rules were written against. That
    /// order is the reverse of a plain post-order walk, which one cursor does without restarts.
    pub(super) fn new(lang: Lang, root: Node<'t>) -> Flat<Node<'t>> {
        const NONE: u32 = u32::MAX;
        let names = kind_names(lang);
        // Every node counts towards the capacity, anonymous leaves too: an over-estimate that
        // spares the vectors their regrowth.
        let all = root.descendant_count();
        let (mut nodes, mut parents) = (Vec::with_capacity(all), Vec::with_capacity(all));
        // Indices of emitted nodes whose parent comes later, and where each open level starts.
        let (mut waiting, mut levels) = (Vec::<u32>::new(), Vec::<usize>::new());
        let mut cursor = root.walk();
        'descend: loop {
            while cursor.goto_first_child() {
                levels.push(waiting.len());
            }
            loop {
                let node = cursor.node();
                // Punctuation and keywords (anonymous leaves) are left out: no analysis looks at
                // them, and they are about half of a tree.
                if node.is_named() || node.child_count() > 0 {
                    waiting.push(nodes.len() as u32);
                    nodes.push(node);
                    parents.push(NONE);
                }
                if cursor.goto_next_sibling() {
                    continue 'descend;
                }
                if !cursor.goto_parent() {
                    break 'descend;
                }
                let parent = nodes.len() as u32;
                for child in waiting.drain(levels.pop().unwrap_or(0)..) {
                    parents[child as usize] = parent;
                }
            }
        }
        let last = nodes.len() as u32 - 1;
        nodes.reverse();
        parents.reverse();
        Flat {
            kinds: nodes.iter().map(|n| names.get(usize::from(n.kind_id())).copied().unwrap_or("")).collect(),
            nodes,
            parents: parents.into_iter().map(|p| (p != NONE).then(|| last - p)).collect(),
        }
    }
}

impl<N> Flat<N> {
    /// A flat tree from its nodes in walk order, with each one's kind and parent index.
    pub(super) fn from_parts(nodes: Vec<N>, kinds: Vec<&'static str>, parents: Vec<Option<u32>>) -> Flat<N> {
        Flat { nodes, kinds, parents }
    }

    pub(super) fn parent(&self, i: usize) -> Option<usize> {
        self.parents[i].map(|p| p as usize)
    }

    /// The nearest enclosing node of `kind`, by index.
    pub(super) fn ancestor(&self, i: usize, kind: &str) -> Option<usize> {
        std::iter::successors(self.parent(i), |&p| self.parent(p)).find(|&p| self.kinds[p] == kind)
    }

    /// The nearest enclosing node whose kind is one of `kinds`.
    pub(super) fn enclosing(&self, i: usize, kinds: &[&str]) -> Option<usize> {
        std::iter::successors(self.parent(i), |&p| self.parent(p)).find(|&p| kinds.contains(&self.kinds[p]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The order and parents a walk with `Node::children` and `Node::parent` gives, without
    /// anonymous leaves.
    fn reference(root: Node) -> Vec<(Node, Option<Node>)> {
        let mut out = Vec::new();
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            if n.is_named() || n.child_count() > 0 {
                out.push((n, n.parent()));
            }
            let mut c = n.walk();
            stack.extend(n.children(&mut c));
        }
        out
    }

    #[test]
    fn one_cursor_walk_gives_the_order_and_parents_of_the_node_walk() {
        let code = "import os\ndef f(a, b=[1, (2, 3)]):\n    # note\n    return os.system(a + b)\n\nclass C:\n    x = f('ls')\n";
        let tree = Lang::Python.parse(code).unwrap();
        let flat = Flat::new(Lang::Python, tree.root_node());
        let want = reference(tree.root_node());
        assert_eq!(flat.nodes.len(), want.len());
        for (i, (node, parent)) in want.iter().enumerate() {
            assert_eq!(flat.nodes[i], *node);
            assert_eq!(flat.kinds[i], node.kind());
            assert_eq!(flat.parent(i).map(|p| flat.nodes[p]), *parent);
        }
    }
}
