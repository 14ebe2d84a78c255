"""The one thing pyproject.toml cannot say along with finding the packages: the wheel ships the
checkout's top-level templates/ folder inside the package, as generator/templates
(generator/render/templates.py reads it there when installed, beside the package in a checkout).
Everything else, the templates' package data included, is in pyproject.toml."""
from setuptools import find_packages, setup

setup(packages=find_packages(include=["generator", "generator.*"]) + ["generator.templates"],
      package_dir={"generator.templates": "templates"})
