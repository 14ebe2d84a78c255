package tripleagen.guard;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.regex.Pattern;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.validation.Schema;

import org.w3c.dom.DOMImplementation;
import org.w3c.dom.Document;
import org.xml.sax.EntityResolver;
import org.xml.sax.ErrorHandler;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.ext.EntityResolver2;

/**
 * The DOM parser factory of every JVM triplea-gen starts (named by the system property
 * javax.xml.parsers.DocumentBuilderFactory on the java command line). The 1.9 engine's
 * GameParser asks DocumentBuilderFactory.newInstance() for a validating parser; this one is
 * the JDK's own, except that it can read exactly one external thing: the engine's game.dtd,
 * from the engine jar, for a DOCTYPE naming "game.dtd". Every other DTD, parameter entity or
 * external entity (a URL, a file path, a PUBLIC id) is refused before anything is opened, and
 * the JDK's own access checks are closed as well (javax.xml.accessExternalDTD=""), so that a
 * request slipping past the resolver still opens nothing.
 */
public final class GuardedDocumentBuilderFactory extends DocumentBuilderFactory {
  static final String GAME_DTD = "game.dtd";
  private static final String GAME_DTD_RESOURCE = "games/strategy/engine/xml/game.dtd";
  private static final Pattern BARE_FILE_NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*");

  private final DocumentBuilderFactory jdk = DocumentBuilderFactory.newDefaultInstance();

  public GuardedDocumentBuilderFactory() {}

  @Override
  public DocumentBuilder newDocumentBuilder() throws ParserConfigurationException {
    harden(jdk);
    final DocumentBuilder builder = jdk.newDocumentBuilder();
    builder.setEntityResolver(new GameDtdOnly());
    return new GuardedDocumentBuilder(builder);
  }

  /** Re-applied before every parser is made, so a caller's settings cannot undo it. */
  private static void harden(final DocumentBuilderFactory factory) throws ParserConfigurationException {
    factory.setXIncludeAware(false);
    factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
    factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
    factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
    factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
    factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
  }

  /** Serves the jar's game.dtd for a DOCTYPE naming game.dtd; refuses everything else. */
  static final class GameDtdOnly implements EntityResolver2 {
    @Override
    public InputSource getExternalSubset(final String name, final String baseUri) {
      return null;
    }

    @Override
    public InputSource resolveEntity(final String publicId, final String systemId) throws SAXException {
      return resolveEntity(null, publicId, null, systemId);
    }

    @Override
    public InputSource resolveEntity(final String name, final String publicId, final String baseUri,
        final String systemId) throws SAXException {
      // The JDK's DOM parser names the external subset null (SAX names it "[dtd]").
      final boolean subset = name == null || "[dtd]".equals(name);
      if (subset && publicId == null && GAME_DTD.equals(systemId)) {
        final URL dtd = GuardedDocumentBuilderFactory.class.getClassLoader().getResource(GAME_DTD_RESOURCE);
        if (dtd == null) {
          throw new SAXException("triplea-gen: the engine jar has no " + GAME_DTD_RESOURCE);
        }
        try {
          final InputStream stream = dtd.openStream();
          final InputSource source = new InputSource(stream);
          source.setSystemId(dtd.toExternalForm());
          return source;
        } catch (final IOException e) {
          throw new SAXException("triplea-gen: cannot read the engine's " + GAME_DTD, e);
        }
      }
      final String what = subset ? "DTD" : "entity " + name;
      final String id = publicId != null ? "PUBLIC \"" + publicId + "\"" : "\"" + systemId + "\"";
      final boolean bare = publicId == null && systemId != null && BARE_FILE_NAME.matcher(systemId).matches();
      throw new SAXException("triplea-gen refused to let the engine read the external " + what + " " + id
          + (bare ? " (only game.dtd, from the engine jar, is read)" : ""));
    }
  }

  // --- everything else is the JDK factory's ---------------------------------------------

  @Override
  public void setAttribute(final String name, final Object value) {
    jdk.setAttribute(name, value);
  }

  @Override
  public Object getAttribute(final String name) {
    return jdk.getAttribute(name);
  }

  @Override
  public void setFeature(final String name, final boolean value) throws ParserConfigurationException {
    jdk.setFeature(name, value);
  }

  @Override
  public boolean getFeature(final String name) throws ParserConfigurationException {
    return jdk.getFeature(name);
  }

  @Override
  public void setNamespaceAware(final boolean awareness) {
    jdk.setNamespaceAware(awareness);
  }

  @Override
  public boolean isNamespaceAware() {
    return jdk.isNamespaceAware();
  }

  @Override
  public void setValidating(final boolean validating) {
    jdk.setValidating(validating);
  }

  @Override
  public boolean isValidating() {
    return jdk.isValidating();
  }

  @Override
  public void setIgnoringElementContentWhitespace(final boolean whitespace) {
    jdk.setIgnoringElementContentWhitespace(whitespace);
  }

  @Override
  public boolean isIgnoringElementContentWhitespace() {
    return jdk.isIgnoringElementContentWhitespace();
  }

  @Override
  public void setExpandEntityReferences(final boolean expandEntityRef) {
    jdk.setExpandEntityReferences(expandEntityRef);
  }

  @Override
  public boolean isExpandEntityReferences() {
    return jdk.isExpandEntityReferences();
  }

  @Override
  public void setIgnoringComments(final boolean ignoreComments) {
    jdk.setIgnoringComments(ignoreComments);
  }

  @Override
  public boolean isIgnoringComments() {
    return jdk.isIgnoringComments();
  }

  @Override
  public void setCoalescing(final boolean coalescing) {
    jdk.setCoalescing(coalescing);
  }

  @Override
  public boolean isCoalescing() {
    return jdk.isCoalescing();
  }

  @Override
  public void setSchema(final Schema schema) {
    jdk.setSchema(schema);
  }

  @Override
  public Schema getSchema() {
    return jdk.getSchema();
  }

  /** The JDK's parser, whose entity resolver cannot be replaced. */
  private static final class GuardedDocumentBuilder extends DocumentBuilder {
    private final DocumentBuilder jdk;

    GuardedDocumentBuilder(final DocumentBuilder jdk) {
      this.jdk = jdk;
    }

    @Override
    public Document parse(final InputSource source) throws SAXException, IOException {
      return jdk.parse(source);
    }

    @Override
    public void setEntityResolver(final EntityResolver resolver) {
      // Kept: GameDtdOnly stays in charge of everything external.
    }

    @Override
    public void setErrorHandler(final ErrorHandler handler) {
      jdk.setErrorHandler(handler);
    }

    @Override
    public boolean isNamespaceAware() {
      return jdk.isNamespaceAware();
    }

    @Override
    public boolean isValidating() {
      return jdk.isValidating();
    }

    @Override
    public Document newDocument() {
      return jdk.newDocument();
    }

    @Override
    public DOMImplementation getDOMImplementation() {
      return jdk.getDOMImplementation();
    }

    @Override
    public void reset() {
      jdk.reset();
      jdk.setEntityResolver(new GameDtdOnly());
    }

    @Override
    public Schema getSchema() {
      return jdk.getSchema();
    }

    @Override
    public boolean isXIncludeAware() {
      return false;
    }
  }
}
