"""XML documents as light element trees that remember their file and line (for messages)."""

from xml.parsers import expat


class XmlElement:
    """An XML element: ``tag``, ``attrib`` (dict), ``children`` (elements, in order), ``text``
    (its stripped character data, or None), and ``file`` and ``line`` where it starts."""

    __slots__ = ("tag", "attrib", "children", "text", "file", "line", "parent")

    def __init__(self, tag, attrib, file, line, parent):
        self.tag = tag
        self.attrib = attrib
        self.children = []
        self.text = None
        self.file = file
        self.line = line
        self.parent = parent

    def find(self, tag):
        """The first child named ``tag``, or None."""
        for child in self.children:
            if child.tag == tag:
                return child
        return None

    def findall(self, tag):
        """The children named ``tag``."""
        return [child for child in self.children if child.tag == tag]

    def get(self, name, default=None):
        """The value of attribute ``name``, or ``default``."""
        return self.attrib.get(name, default)

    def path(self):
        """The element's path from the root, as ``/robot/link[@name="base"]/inertial``."""
        parts = []
        element = self
        while element is not None:
            name = element.attrib.get("name")
            parts.append(element.tag + (f'[@name="{name}"]' if name is not None else ""))
            element = element.parent
        return "/" + "/".join(reversed(parts))

    def __repr__(self):
        return f"<XmlElement {self.tag} at {self.file}:{self.line}>"


class XmlSyntaxError(ValueError):
    """Malformed XML: ``line`` and ``message`` say where and what."""

    def __init__(self, line, message):
        super().__init__(message)
        self.line = line


def parse_xml(text, file):
    """The root XmlElement of the document ``text`` (``file`` names it in messages);
    XmlSyntaxError if it is not well-formed XML."""
    parser = expat.ParserCreate()
    root = []
    stack = []
    chunks = []

    def start(tag, attrib):
        parent = stack[-1] if stack else None
        element = XmlElement(tag, attrib, file, parser.CurrentLineNumber, parent)
        if parent is None:
            root.append(element)
        else:
            parent.children.append(element)
        stack.append(element)
        chunks.append([])

    def end(tag):
        element = stack.pop()
        text = "".join(chunks.pop()).strip()
        element.text = text or None

    def data(text):
        if chunks:
            chunks[-1].append(text)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = data
    try:
        parser.Parse(text.encode() if isinstance(text, str) else text, True)
    except expat.ExpatError as e:
        raise XmlSyntaxError(
            e.lineno, f"Failed to parse XML: {expat.errors.messages[e.code]}"
        ) from None
    return root[0]
