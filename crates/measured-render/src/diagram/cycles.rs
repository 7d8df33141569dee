//! Composite states that hold themselves (`state T { [*] --> T }`): mermaid-svg lays a
//! composite out by recursing into its members, so one inside itself, however deep, recurses
//! until the stack is gone. Found before it is drawn, without recursion of its own.

use std::collections::{BTreeMap, BTreeSet};

use mermaid_svg::ast::StateDiagram;

use super::DiagramError;

/// An error naming a composite state that is inside itself, at the line of the block that opens
/// it, if the diagram has one.
pub fn check(d: &StateDiagram, source: &str) -> Result<(), DiagramError> {
    let mut members: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for c in &d.composites {
        members
            .entry(c.id.as_str())
            .or_default()
            .extend(c.regions.iter().flatten().map(String::as_str));
    }
    for &start in members.keys() {
        // Every composite reachable from `start` through members: is `start` among them?
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&str> = members[start].iter().copied().collect();
        while let Some(id) = todo.pop() {
            if id == start {
                return Err(DiagramError {
                    line: opening_line(source, start),
                    message: format!(
                        "the state `{start}` is inside itself (a state of its block, or of a block in it, is `{start}`), which cannot be drawn"
                    ),
                    hint: Some("give the inner state another name"),
                });
            }
            if seen.insert(id) {
                todo.extend(members.get(id).into_iter().flatten().copied());
            }
        }
    }
    Ok(())
}

/// The line (from 1) of `source` that opens the block of state `id`: `state id {`.
fn opening_line(source: &str, id: &str) -> Option<usize> {
    source
        .lines()
        .position(|l| {
            l.trim_start()
                .strip_prefix("state ")
                .is_some_and(|rest| rest.trim_start().starts_with(id) && rest.contains('{'))
        })
        .map(|i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(source: &str) -> StateDiagram {
        match mermaid_svg::parse(source) {
            Ok(mermaid_svg::ast::Diagram::State(d)) => d,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_state_inside_itself_is_found_at_its_block() {
        for source in [
            "stateDiagram-v2\nstate T {\n  [*] --> T\n}\n",
            "stateDiagram-v2\nA --> B\nstate T {\n  state U {\n    T\n  }\n}\n",
            "stateDiagram-v2\nstate T {\n  state T {\n    A\n  }\n}\n",
            "stateDiagram-v2\nstate T {\n  U\n}\nstate U {\n  T\n}\n",
        ] {
            let e = check(&state(source), source).unwrap_err();
            assert!(
                e.message.starts_with("the state `T` is inside itself"),
                "{e}"
            );
            let line = source.lines().position(|l| l == "state T {").unwrap() + 1;
            assert_eq!(e.line, Some(line), "{source}");
        }
        let fine = "stateDiagram-v2\nstate T {\n  state U {\n    A --> B\n  }\n}\nT --> C\n";
        assert_eq!(check(&state(fine), fine), Ok(()));
    }

    /// Found by the `mermaid` fuzz target: drawn, it overflowed the stack, whatever its size.
    #[test]
    fn drawing_a_state_inside_itself_is_an_error_not_a_stack_overflow() {
        let opts = super::super::DiagramOptions {
            id: "mmd1",
            title: "Diagram",
        };
        let e = super::super::mermaid("stateDiagram-v2\nstate T {\n  [*] --> T\n}\n", &opts)
            .unwrap_err();
        assert_eq!(e.line, Some(2), "{e}");
    }
}
