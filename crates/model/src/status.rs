//! HTTP status codes from the constants frameworks name them by.

/// Reason names, normalised (lower case, letters and digits only), and their codes.
const NAMES: &[(&str, u16)] = &[
    ("continue", 100),
    ("switchingprotocols", 101),
    ("ok", 200),
    ("created", 201),
    ("accepted", 202),
    ("nocontent", 204),
    ("movedpermanently", 301),
    ("found", 302),
    ("seeother", 303),
    ("notmodified", 304),
    ("temporaryredirect", 307),
    ("permanentredirect", 308),
    ("badrequest", 400),
    ("unauthorized", 401),
    ("unauthorised", 401),
    ("paymentrequired", 402),
    ("forbidden", 403),
    ("notfound", 404),
    ("methodnotallowed", 405),
    ("notacceptable", 406),
    ("proxyauthrequired", 407),
    ("proxyauthenticationrequired", 407),
    ("requesttimeout", 408),
    ("conflict", 409),
    ("gone", 410),
    ("lengthrequired", 411),
    ("preconditionfailed", 412),
    ("payloadtoolarge", 413),
    ("requestentitytoolarge", 413),
    ("contenttoolarge", 413),
    ("requesturitoolong", 414),
    ("uritoolong", 414),
    ("unsupportedmediatype", 415),
    ("requestedrangenotsatisfiable", 416),
    ("rangenotsatisfiable", 416),
    ("expectationfailed", 417),
    ("teapot", 418),
    ("imateapot", 418),
    ("iamateapot", 418),
    ("misdirectedrequest", 421),
    ("unprocessableentity", 422),
    ("unprocessablecontent", 422),
    ("locked", 423),
    ("faileddependency", 424),
    ("tooearly", 425),
    ("upgraderequired", 426),
    ("preconditionrequired", 428),
    ("toomanyrequests", 429),
    ("requestheaderfieldstoolarge", 431),
    ("unavailableforlegalreasons", 451),
    ("internalservererror", 500),
    ("internalerror", 500),
    ("notimplemented", 501),
    ("badgateway", 502),
    ("serviceunavailable", 503),
    ("gatewaytimeout", 504),
    ("httpversionnotsupported", 505),
    ("variantalsonegotiates", 506),
    ("insufficientstorage", 507),
    ("loopdetected", 508),
    ("notextended", 510),
    ("networkauthenticationrequired", 511),
];

/// Whether `n` is a valid HTTP status code.
pub fn is_http_status(n: i64) -> bool {
    (100..=599).contains(&n)
}

/// The status a number literal gives (`404`), when it is a valid HTTP status.
pub fn http_status_from_number(text: &str) -> Option<u16> {
    let n: i64 = text.trim().parse().ok()?;
    is_http_status(n).then_some(n as u16)
}

/// The status a framework constant names: `http.StatusNotFound`, `HttpStatus.NOT_FOUND`,
/// `status.HTTP_404_NOT_FOUND`, `HTTPStatus.NOT_FOUND`, `StatusCode::NOT_FOUND`.
pub fn http_status_from_name(name: &str) -> Option<u16> {
    let last = name
        .rsplit(['.', ':'])
        .next()
        .unwrap_or(name)
        .trim_start_matches("Status")
        .trim_start_matches("HTTP_")
        .trim_start_matches("SC_");
    // `HTTP_404_NOT_FOUND` carries its number.
    let digits: String = last.chars().take_while(char::is_ascii_digit).collect();
    if digits.len() == 3 {
        let n: u16 = digits.parse().ok()?;
        return is_http_status(n.into()).then_some(n);
    }
    let norm: String = last
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    NAMES.iter().find(|(n, _)| *n == norm).map(|&(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn framework_constants() {
        assert_eq!(http_status_from_name("http.StatusNotFound"), Some(404));
        assert_eq!(http_status_from_name("HttpStatus.NOT_FOUND"), Some(404));
        assert_eq!(
            http_status_from_name("status.HTTP_404_NOT_FOUND"),
            Some(404)
        );
        assert_eq!(http_status_from_name("HTTPStatus.BAD_REQUEST"), Some(400));
        assert_eq!(http_status_from_name("StatusCode::CONFLICT"), Some(409));
        assert_eq!(
            http_status_from_name("http.StatusInternalServerError"),
            Some(500)
        );
        assert_eq!(
            http_status_from_name("HttpServletResponse.SC_FORBIDDEN"),
            Some(403)
        );
        assert_eq!(http_status_from_name("foo.Bar"), None);
    }
}
