/// One named rule of SAML Response validation (SAML Core §3.2.2, §2.3–2.7; Profiles §4.1.4.2–4.1.4.3), the
/// counterpart of OIDC's `IDTokenCheck`: a rejection carries the rule's ``name`` in ``SAMLError/rule``.
///
/// ``SAMLResponseVerifier`` runs every check of ``standard``, in that order, on every Response. The list is fixed:
/// each check relies on what the ones before it established (the signature checks locate the one assertion the
/// later checks read), so unlike ID-token checks they cannot be reordered or left out.
public struct SAMLResponseCheck: Sendable, CustomStringConvertible {
    /// The rule's snake_case name, e.g. `destination`.
    public let name: String
    let evaluate: @Sendable (inout ResponseValidation) throws(SAMLError) -> Void

    init(name: String, evaluate: @escaping @Sendable (inout ResponseValidation) throws(SAMLError) -> Void) {
        self.name = name
        self.evaluate = evaluate
    }

    /// The rule's name.
    public var description: String { name }

    /// Runs the check; a failure is returned with this check's name as its rule.
    func callAsFunction(_ validation: inout ResponseValidation) throws(SAMLError) {
        do throws(SAMLError) {
            try evaluate(&validation)
        } catch {
            throw error.naming(rule: name)
        }
    }
}

extension SAMLError {
    /// This error attributed to `rule`.
    func naming(rule: String) -> SAMLError {
        var named = self
        named.rule = rule
        return named
    }
}
