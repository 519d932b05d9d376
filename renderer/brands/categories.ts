/**
 * Names of the marketplace's categories, as each site names them (issue 15 §4: a brand's
 * categories read as names, not ids). The API of SPEC.md has no category call, so the app carries
 * the top-level categories of its sites and the ones the demo data uses; an id outside the list is
 * shown as "another category" (its id only in the tooltip).
 */
const NAMES: Readonly<Record<string, string>> = {
  // Argentina (MLA)
  MLA5725: 'Accesorios para Vehículos',
  MLA1512: 'Agro',
  MLA1403: 'Alimentos y Bebidas',
  MLA1071: 'Animales y Mascotas',
  MLA1367: 'Antigüedades y Colecciones',
  MLA1368: 'Arte, Librería y Mercería',
  MLA1743: 'Autos, Motos y Otros',
  MLA1384: 'Bebés',
  MLA1246: 'Belleza y Cuidado Personal',
  MLA1039: 'Cámaras y Accesorios',
  MLA1051: 'Celulares y Teléfonos',
  MLA1648: 'Computación',
  MLA1144: 'Consolas y Videojuegos',
  MLA1500: 'Construcción',
  MLA1276: 'Deportes y Fitness',
  MLA5726: 'Electrodomésticos y Aires Ac.',
  MLA1000: 'Electrónica, Audio y Video',
  MLA407134: 'Herramientas',
  MLA1574: 'Hogar, Muebles y Jardín',
  MLA1499: 'Industrias y Oficinas',
  MLA1182: 'Instrumentos Musicales',
  MLA3937: 'Joyas y Relojes',
  MLA1132: 'Juegos y Juguetes',
  MLA3025: 'Libros, Revistas y Comics',
  MLA1168: 'Música y Películas',
  MLA1430: 'Ropa y Accesorios',
  MLA409431: 'Salud y Equipamiento Médico',
  MLA1953: 'Otras categorías',
  MLA109027: 'Zapatillas',
  MLA1902: 'Termos',
  MLA1903: 'Mates y bombillas',
  MLA1904: 'Yerba mate',
  // Brasil (MLB)
  MLB5672: 'Acessórios para Veículos',
  MLB1403: 'Alimentos e Bebidas',
  MLB1071: 'Animais',
  MLB1384: 'Bebês',
  MLB1246: 'Beleza e Cuidado Pessoal',
  MLB1132: 'Brinquedos e Hobbies',
  MLB1430: 'Calçados, Roupas e Bolsas',
  MLB1574: 'Casa, Móveis e Decoração',
  MLB1051: 'Celulares e Telefones',
  MLB1000: 'Eletrônicos, Áudio e Vídeo',
  MLB1276: 'Esportes e Fitness',
  MLB1648: 'Informática',
  MLB1144: 'Games',
  // México (MLM)
  MLM1384: 'Bebés',
  MLM1276: 'Deportes y Fitness',
  MLM1000: 'Electrónica, Audio y Video',
  MLM1574: 'Hogar, Muebles y Jardín',
  MLM1430: 'Ropa, Bolsas y Calzado',
};

/** The category's name, or null when the app does not know it. */
export function categoryName(id: string): string | null {
  return NAMES[id] ?? null;
}
