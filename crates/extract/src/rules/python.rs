//! Python error sites.

use tree_sitter::Node;

use super::{Cx, Found, Rules};

pub(crate) struct Python;

impl Rules for Python {
    fn site<'t>(&self, _node: Node<'t>, _cx: &Cx<'_>) -> Option<Found<'t>> {
        None
    }

    fn is_function(&self, _kind: &str) -> bool {
        false
    }

    fn assigned_value<'t>(&self, _stmt: Node<'t>, _name: &str, _cx: &Cx<'_>) -> Option<Node<'t>> {
        None
    }
}
