//! The node pool: fixed-capacity storage for the search tree.
//!
//! Nodes live in one array the caller supplies (a `static` array lent as
//! a [`Lent`] slice on the firmware and in the browser, `Vec<Node>` or
//! `Box<[Node]>` sized by `--tree-mb` on the host). Index 0 is the root.
//! Expanding a node allocates all its children at once, as one contiguous
//! block after everything already allocated (a bump allocator), so a child
//! block always lies at higher addresses than its parent.
//!
//! That order makes pruning a *sliding compaction* (LISP2 style) in three
//! linear passes and no extra memory: mark (a node survives if its parent
//! survives and keeps its expansion), fix the links with the forwarding
//! addresses kept in each node's `scratch` word, then slide the survivors
//! down in address order. Re-rooting the tree for the next move is the same
//! operation with a new root. Whole child blocks go or stay, so children
//! stay contiguous.

use crate::lent::Lent;

/// Forwarding address of a node that does not survive a compaction.
const DROPPED: u32 = u32::MAX;

/// One position of the search tree, reached by `mv` from its parent.
///
/// 40 bytes: the statistics a UCT-RAVE walk reads first, then the links.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Node {
    /// Full hash of the position at this node (set when it is expanded).
    pub key: u64,
    /// Playouts through this node.
    pub visits: u32,
    /// Wins of those playouts for the player who played `mv` (draws count
    /// half; with [`super::Params::score_bonus`], values between 0 and 1).
    pub wins: f32,
    /// AMAF (all-moves-as-first) playouts, priors included as virtual ones.
    pub amaf_visits: f32,
    /// AMAF wins, priors included.
    pub amaf_wins: f32,
    pub(crate) parent: u32,
    pub(crate) first_child: u32,
    /// The move from the parent, a point index (0 = pass).
    pub mv: u16,
    pub(crate) n_children: u16,
    /// Forwarding address or subtree height during a pool pass.
    pub(crate) scratch: u32,
}

static_assertions::assert_eq_size!(Node, [u8; 40]);

impl Node {
    /// An unvisited node with no children.
    pub const EMPTY: Node = Node {
        key: 0,
        visits: 0,
        wins: 0.0,
        amaf_visits: 0.0,
        amaf_wins: 0.0,
        parent: 0,
        first_child: 0,
        mv: 0,
        n_children: 0,
        scratch: 0,
    };

    /// Query whether the node has children.
    #[inline(always)]
    pub fn is_expanded(&self) -> bool {
        self.n_children > 0
    }

    /// Return the range of the children's indices in the pool.
    #[inline(always)]
    pub fn children(&self) -> core::ops::Range<usize> {
        let f = self.first_child as usize;
        f..f + self.n_children as usize
    }

    /// Return the win rate for the player who played `mv` (0.5 if unvisited).
    #[inline]
    pub fn win_rate(&self) -> f32 {
        if self.visits == 0 {
            0.5
        } else {
            self.wins / self.visits as f32
        }
    }
}

/// The tree's node storage and its allocator.
pub struct Pool<S> {
    nodes: S,
    len: u32,
}

impl<'a> Pool<Lent<'a, Node>> {
    /// Return a pool over the borrowed `nodes` whose root is `nodes[0]` as
    /// it is, built at compile time if wanted (a `static` pool reads no
    /// other `static` at compile time). Pass [`Node::EMPTY`]s (zeroed
    /// storage) or call [`Pool::clear`] for an empty tree.
    ///
    /// Returns `None` if `nodes` cannot hold a root and one child block.
    pub const fn over(nodes: &'a mut [Node]) -> Option<Self> {
        if nodes.len() < 2 || nodes.len() >= u32::MAX as usize {
            return None;
        }
        Some(Pool {
            nodes: Lent::new(nodes),
            len: 1,
        })
    }
}

impl<S: AsRef<[Node]> + AsMut<[Node]>> Pool<S> {
    /// Return a pool over `nodes` holding only an empty root.
    ///
    /// Returns `None` if `nodes` cannot hold a root and one child block.
    pub fn new(nodes: S) -> Option<Self> {
        if nodes.as_ref().len() < 2 || nodes.as_ref().len() >= u32::MAX as usize {
            return None;
        }
        let mut pool = Pool { nodes, len: 1 };
        pool.clear();
        Some(pool)
    }

    /// Return the number of nodes the pool can hold.
    #[inline]
    pub fn capacity(&self) -> usize {
        self.nodes.as_ref().len()
    }

    /// Return the number of nodes in use.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Query whether only the root is in use (never true-empty: the root
    /// always exists).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len <= 1
    }

    /// Drop every node but a fresh root.
    pub fn clear(&mut self) {
        self.nodes.as_mut()[0] = Node::EMPTY;
        self.len = 1;
    }

    /// Return the nodes in use.
    #[inline(always)]
    pub fn nodes(&self) -> &[Node] {
        &self.nodes.as_ref()[..self.len as usize]
    }

    /// Return the nodes in use, for writing.
    #[inline(always)]
    pub fn nodes_mut(&mut self) -> &mut [Node] {
        let len = self.len as usize;
        &mut self.nodes.as_mut()[..len]
    }

    /// Allocate a block of `n` children for `parent`; `None` when the pool is full.
    ///
    /// The children are zeroed; the caller fills in moves and priors.
    pub fn alloc_children(&mut self, parent: u32, n: usize) -> Option<u32> {
        let first = self.len as usize;
        if n == 0 || n > u16::MAX as usize || first + n > self.capacity() {
            return None;
        }
        let nodes = self.nodes.as_mut();
        for node in &mut nodes[first..first + n] {
            *node = Node {
                parent,
                ..Node::EMPTY
            };
        }
        nodes[parent as usize].first_child = first as u32;
        nodes[parent as usize].n_children = n as u16;
        self.len = (first + n) as u32;
        Some(first as u32)
    }

    /// Mark which nodes survive a compaction to `root` in which only nodes
    /// with at least `min_visits` visits (and `root` itself) keep their
    /// children; write forwarding addresses and return the survivor count.
    fn mark(&mut self, root: u32, min_visits: u32) -> u32 {
        let len = self.len as usize;
        let nodes = &mut self.nodes.as_mut()[..len];
        let root = root as usize;
        for n in &mut nodes[..root] {
            n.scratch = DROPPED;
        }
        let mut kept = 0u32;
        for i in root..len {
            let keep = i == root || {
                let p = nodes[i].parent as usize;
                p >= root
                    && nodes[p].scratch != DROPPED
                    && (p == root || nodes[p].visits >= min_visits)
            };
            nodes[i].scratch = if keep {
                kept += 1;
                kept - 1
            } else {
                DROPPED
            };
        }
        kept
    }

    /// Return how many nodes would survive [`Pool::retain`] with these arguments.
    pub fn count_retained(&mut self, root: u32, min_visits: u32) -> usize {
        self.mark(root, min_visits) as usize
    }

    /// Make `root` the new root (index 0) and drop everything outside its
    /// subtree, and the children of every node below it with fewer than
    /// `min_visits` visits; return the number of nodes left.
    ///
    /// `retain(0, u32::MAX)` keeps the root and its children only;
    /// `retain(0, 0)` keeps everything.
    pub fn retain(&mut self, root: u32, min_visits: u32) -> usize {
        if root >= self.len {
            self.clear();
            return 1;
        }
        let kept = self.mark(root, min_visits);
        let len = self.len as usize;
        let root = root as usize;
        let nodes = &mut self.nodes.as_mut()[..len];
        // Fix the links with the forwarding addresses (nothing has moved yet).
        for i in root..len {
            if nodes[i].scratch == DROPPED {
                continue;
            }
            let parent = if i == root {
                0
            } else {
                nodes[nodes[i].parent as usize].scratch
            };
            let (first, n) = if nodes[i].n_children == 0 {
                (0, 0)
            } else {
                match nodes[nodes[i].first_child as usize].scratch {
                    DROPPED => (0, 0),
                    f => (f, nodes[i].n_children),
                }
            };
            nodes[i].parent = parent;
            nodes[i].first_child = first;
            nodes[i].n_children = n;
        }
        // Slide the survivors down; a forwarding address never exceeds the
        // old one, and survivors keep their order.
        for i in root..len {
            let to = nodes[i].scratch;
            if to != DROPPED {
                nodes[to as usize] = nodes[i];
            }
        }
        self.len = kept;
        kept as usize
    }

    /// Write into every node's `scratch` the height of its subtree (0 for a
    /// leaf); parents precede children, so one backward pass does it.
    pub(crate) fn compute_heights(&mut self) {
        let len = self.len as usize;
        let nodes = &mut self.nodes.as_mut()[..len];
        for n in nodes.iter_mut() {
            n.scratch = 0;
        }
        for i in (1..len).rev() {
            let h = nodes[i].scratch + 1;
            let p = nodes[i].parent as usize;
            if nodes[p].scratch < h {
                nodes[p].scratch = h;
            }
        }
    }

    /// Return the height computed by the last [`Pool::compute_heights`].
    pub(crate) fn height(&self, i: usize) -> u32 {
        self.nodes.as_ref()[i].scratch
    }
}
