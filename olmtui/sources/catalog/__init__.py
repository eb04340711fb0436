"""Catalog content as a source: file-based catalogs, bundle directories, legacy
package manifests, PackageManifests and catalogd's ClusterCatalog content."""
