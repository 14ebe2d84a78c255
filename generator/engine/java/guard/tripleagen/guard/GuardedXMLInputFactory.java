package tripleagen.guard;

import java.io.InputStream;
import java.io.Reader;

import javax.xml.stream.EventFilter;
import javax.xml.stream.StreamFilter;
import javax.xml.stream.XMLEventReader;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLReporter;
import javax.xml.stream.XMLResolver;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.stream.util.XMLEventAllocator;
import javax.xml.transform.Source;

/**
 * The StAX factory of every JVM triplea-gen starts for TripleA 2.x (named by the system property
 * javax.xml.stream.XMLInputFactory on the java command line). The 2.x engine reads game files
 * with XMLInputFactory.newInstance() and the JDK's defaults, which would load the external DTD a
 * DOCTYPE names and expand external entities. This factory is the JDK's own with DTD support
 * off (a DOCTYPE is passed over, nothing it names is opened; the 2.x parser does not validate),
 * external entities off and a resolver that refuses everything; a caller cannot turn them back on.
 */
public final class GuardedXMLInputFactory extends XMLInputFactory {
  private final XMLInputFactory jdk = XMLInputFactory.newDefaultFactory();

  public GuardedXMLInputFactory() {
    harden();
  }

  private void harden() {
    jdk.setProperty(SUPPORT_DTD, Boolean.FALSE);
    jdk.setProperty(IS_SUPPORTING_EXTERNAL_ENTITIES, Boolean.FALSE);
    jdk.setProperty(IS_REPLACING_ENTITY_REFERENCES, Boolean.FALSE);
    jdk.setXMLResolver(new RefuseAll());
  }

  /** Refuses every external thing the reader might still ask for. */
  static final class RefuseAll implements XMLResolver {
    @Override
    public Object resolveEntity(final String publicId, final String systemId, final String baseUri,
        final String namespace) throws XMLStreamException {
      final String id = publicId != null ? "PUBLIC \"" + publicId + "\"" : "\"" + systemId + "\"";
      throw new XMLStreamException("triplea-gen refused to let the engine read the external entity " + id);
    }
  }

  @Override
  public void setProperty(final String name, final Object value) {
    if (SUPPORT_DTD.equals(name) || IS_SUPPORTING_EXTERNAL_ENTITIES.equals(name)
        || IS_REPLACING_ENTITY_REFERENCES.equals(name) || RESOLVER.equals(name)) {
      return;  // kept: the guard stays in charge of DTDs and entities
    }
    jdk.setProperty(name, value);
  }

  @Override
  public Object getProperty(final String name) {
    return jdk.getProperty(name);
  }

  @Override
  public boolean isPropertySupported(final String name) {
    return jdk.isPropertySupported(name);
  }

  @Override
  public void setXMLResolver(final XMLResolver resolver) {
    // Kept: RefuseAll.
  }

  @Override
  public XMLResolver getXMLResolver() {
    return jdk.getXMLResolver();
  }

  @Override
  public void setXMLReporter(final XMLReporter reporter) {
    jdk.setXMLReporter(reporter);
  }

  @Override
  public XMLReporter getXMLReporter() {
    return jdk.getXMLReporter();
  }

  @Override
  public void setEventAllocator(final XMLEventAllocator allocator) {
    jdk.setEventAllocator(allocator);
  }

  @Override
  public XMLEventAllocator getEventAllocator() {
    return jdk.getEventAllocator();
  }

  // --- readers: the JDK's, made after the guard is applied again ---------------------------

  @Override
  public XMLStreamReader createXMLStreamReader(final Reader reader) throws XMLStreamException {
    harden();
    return jdk.createXMLStreamReader(reader);
  }

  @Override
  public XMLStreamReader createXMLStreamReader(final Source source) throws XMLStreamException {
    harden();
    return jdk.createXMLStreamReader(source);
  }

  @Override
  public XMLStreamReader createXMLStreamReader(final InputStream stream) throws XMLStreamException {
    harden();
    return jdk.createXMLStreamReader(stream);
  }

  @Override
  public XMLStreamReader createXMLStreamReader(final InputStream stream, final String encoding)
      throws XMLStreamException {
    harden();
    return jdk.createXMLStreamReader(stream, encoding);
  }

  @Override
  public XMLStreamReader createXMLStreamReader(final String systemId, final InputStream stream)
      throws XMLStreamException {
    harden();
    return jdk.createXMLStreamReader(systemId, stream);
  }

  @Override
  public XMLStreamReader createXMLStreamReader(final String systemId, final Reader reader)
      throws XMLStreamException {
    harden();
    return jdk.createXMLStreamReader(systemId, reader);
  }

  @Override
  public XMLEventReader createXMLEventReader(final Reader reader) throws XMLStreamException {
    harden();
    return jdk.createXMLEventReader(reader);
  }

  @Override
  public XMLEventReader createXMLEventReader(final String systemId, final Reader reader)
      throws XMLStreamException {
    harden();
    return jdk.createXMLEventReader(systemId, reader);
  }

  @Override
  public XMLEventReader createXMLEventReader(final XMLStreamReader reader) throws XMLStreamException {
    return jdk.createXMLEventReader(reader);  // a reader made by this factory, or the caller's own
  }

  @Override
  public XMLEventReader createXMLEventReader(final Source source) throws XMLStreamException {
    harden();
    return jdk.createXMLEventReader(source);
  }

  @Override
  public XMLEventReader createXMLEventReader(final InputStream stream) throws XMLStreamException {
    harden();
    return jdk.createXMLEventReader(stream);
  }

  @Override
  public XMLEventReader createXMLEventReader(final InputStream stream, final String encoding)
      throws XMLStreamException {
    harden();
    return jdk.createXMLEventReader(stream, encoding);
  }

  @Override
  public XMLEventReader createXMLEventReader(final String systemId, final InputStream stream)
      throws XMLStreamException {
    harden();
    return jdk.createXMLEventReader(systemId, stream);
  }

  @Override
  public XMLStreamReader createFilteredReader(final XMLStreamReader reader, final StreamFilter filter)
      throws XMLStreamException {
    return jdk.createFilteredReader(reader, filter);
  }

  @Override
  public XMLEventReader createFilteredReader(final XMLEventReader reader, final EventFilter filter)
      throws XMLStreamException {
    return jdk.createFilteredReader(reader, filter);
  }
}
