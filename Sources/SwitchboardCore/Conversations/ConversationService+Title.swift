extension ConversationService {
    /// A title: trimmed, 1 to 100 characters, ``ShownText/isShowable(_:)``.
    public static func validTitle(_ title: String) throws(SwitchboardError) -> String {
        let trimmed = title.trimmed
        guard trimmed.count <= 100, ShownText.isShowable(trimmed) else {
            throw SwitchboardError(.invalid, code: "invalid_title",
                                   message: "A title is 1-100 characters with something to see: no control or text-direction characters.")
        }
        return trimmed
    }
}
