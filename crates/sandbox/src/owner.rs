//! Who owns what the sandbox puts in a container.

/// Who owns uploaded entries, by numeric id (no user database needed in the image).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Owner {
    pub uid: u64,
    pub gid: u64,
}

impl Owner {
    /// `uid:gid`, as an exec's or a container's user.
    pub fn user(self) -> String {
        format!("{}:{}", self.uid, self.gid)
    }
}
