#pragma once
// Text into an XML document being written by hand (the VAST writer builds its document
// straight into the reply buffer, with no DOM). Input is UTF-8, as the catalog guarantees.
//
// Characters XML 1.0 forbids anywhere (C0 controls other than tab, line feed and carriage
// return; U+FFFE and U+FFFF) cannot be escaped, only replaced: they become U+FFFD, so a
// stray control character in a catalog string never makes a document unparseable.
#include <string>
#include <string_view>

namespace decision::video {

// Character data: &, < and > escaped.
void append_xml_text(std::string& out, std::string_view text);

// An attribute value, to go between double quotes: &, <, > and " escaped, and tab, line feed
// and carriage return as character references (attribute-value normalisation would turn the
// literal characters into spaces).
void append_xml_attribute(std::string& out, std::string_view text);

// The contents of a CDATA section, without its delimiters: every "]]>" inside is split
// across two sections ("]]" ends one, the next starts with ">"), so the caller's
// "<![CDATA[" ... "]]>" always frames exactly the text.
void append_cdata_content(std::string& out, std::string_view text);

// <![CDATA[text]]>
void append_cdata(std::string& out, std::string_view text);

}  // namespace decision::video
