/// The hops a reverse proxy chain reports in `Forwarded` (RFC 7239) or `X-Forwarded-For`, left (the client, as the
/// first proxy saw it) to right (the peer of the last proxy). Pure parsing: nothing here trusts anything.
package enum ForwardedHop: Hashable, Sendable {
    /// A hop with an IP address (its port, if any, dropped).
    case address(IPAddress)
    /// A hop without a usable address: `unknown`, an obfuscated identifier (`_hidden`), a missing `for=`, or
    /// something malformed.
    case unusable

    /// The hops of the `Forwarded` header fields, in order (several fields are one comma-separated list). A field
    /// with an unterminated quoted string cannot be split into elements reliably: it is one unusable hop.
    package static func forwarded(_ fields: [String]) -> [ForwardedHop] {
        var hops: [ForwardedHop] = []
        for field in fields {
            guard let elements = split(field, on: ",") else {
                hops.append(.unusable)
                continue
            }
            for element in elements where !element.allSatisfy({ $0 == " " || $0 == "\t" }) {
                hops.append(forwardedElement(element))
            }
        }
        return hops
    }

    /// The hops of the `X-Forwarded-For` header fields, in order: comma-separated addresses, each possibly with a
    /// port (`192.0.2.1:4711`, `[2001:db8::1]:4711`); empty entries are skipped.
    package static func xForwardedFor(_ fields: [String]) -> [ForwardedHop] {
        fields.flatMap { field in
            field.split(separator: ",", omittingEmptySubsequences: false).compactMap { entry -> ForwardedHop? in
                let node = entry.trimmingSpaces
                return node.isEmpty ? nil : Self.node(node)
            }
        }
    }

    /// One `Forwarded` element (`for=…;proto=…;by=…`): its single `for` pair's node.
    private static func forwardedElement(_ element: Substring) -> ForwardedHop {
        guard let pairs = split(element, on: ";") else { return .unusable }
        var found: ForwardedHop?
        for pair in pairs {
            let trimmed = pair.trimmingSpaces
            guard let equals = trimmed.firstIndex(of: "=") else {
                if trimmed.isEmpty { continue }
                return .unusable
            }
            guard trimmed[..<equals].lowercased() == "for" else { continue }
            guard found == nil, let value = unquoted(trimmed[trimmed.index(after: equals)...]) else { return .unusable }
            found = node(Substring(value))
        }
        return found ?? .unusable
    }

    /// A node: `192.0.2.1`, `192.0.2.1:80`, `[2001:db8::1]`, `[2001:db8::1]:80`, or a bare IPv6 address.
    static func node(_ text: Substring) -> ForwardedHop {
        var host = text
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return .unusable }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && isPort(rest.dropFirst())) else { return .unusable }
            guard host.contains(":") else { return .unusable }
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            guard isPort(text[text.index(after: colon)...]) else { return .unusable }
            host = text[..<colon]
        }
        return IPAddress(host).map(ForwardedHop.address) ?? .unusable
    }

    private static func isPort(_ text: Substring) -> Bool {
        text.count <= 5 && text.allSatisfy { $0.isASCII && $0.isNumber } && (Int(text).map { $0 <= 65535 } ?? false)
    }

    /// A token, or a quoted-string without its quotes and escapes; nil for an unterminated or malformed one.
    private static func unquoted(_ value: Substring) -> String? {
        guard value.hasPrefix("\"") else { return value.contains("\"") ? nil : String(value) }
        var out = ""
        var escaped = false
        var rest = value.dropFirst()
        while let character = rest.first {
            rest = rest.dropFirst()
            if escaped {
                out.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                return rest.isEmpty ? out : nil
            } else {
                out.append(character)
            }
        }
        return nil
    }

    /// `text` split on `separator` outside quoted strings; nil when a quoted string is not terminated.
    private static func split(_ text: some StringProtocol, on separator: Character) -> [Substring]? {
        let text = Substring(text)
        var parts: [Substring] = []
        var start = text.startIndex
        var quoted = false
        var escaped = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if escaped {
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if !quoted && character == separator {
                parts.append(text[start..<index])
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        guard !quoted else { return nil }
        parts.append(text[start...])
        return parts
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (HTTP's optional white space).
    fileprivate var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
